/*
 * Tests of the event-loop front against scripted fake workers: several
 * clients and sessions served from this one thread through each adapter
 * (epoll, poll, libuv), the non-blocking calls without a front, blocking
 * calls refused in async mode, a reader error told to the handler with the
 * client able to connect again, and auto-reconnect heard through the
 * handlers as a blocking client hears it.
 *
 *   test_async [--fixtures DIR --socket PATH]
 *
 * With --socket, live sessions of a real worker are served through the
 * epoll adapter too.
 *
 * Loops wait for counts of events; their waits are bounded only so that a
 * broken client fails the test instead of hanging it. The last line
 * printed is "N passed, N failed".
 */
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "check.h"
#include "fake_worker.h"
#include "faceworker.h"
#include "faceworker/adapters/epoll.h"
#include "faceworker/adapters/libuv.h"
#include "faceworker/adapters/poll.h"
#include "support.h"

typedef Faceworker__V1__ClientMessage ClientMessage;
typedef Faceworker__V1__WorkerMessage WorkerMessage;

/* A wait that only a broken client reaches. */
#define STUCK_MS 20000

#define CLIENTS 3
#define SESSIONS_PER_CLIENT 2
#define FRAMES 12

static void answer_frame(int fd, const ClientMessage *m)
{
    Faceworker__V1__FrameResult result = FACEWORKER__V1__FRAME_RESULT__INIT;
    result.session_id = m->process_frame->session_id;
    result.timestamp_ms = m->process_frame->frame->timestamp_ms;
    WorkerMessage w = FACEWORKER__V1__WORKER_MESSAGE__INIT;
    w.call_id = m->call_id;
    w.kind_case = FACEWORKER__V1__WORKER_MESSAGE__KIND_FRAME_RESULT;
    w.frame_result = &result;
    fake_write(fd, &w);
}

/* Opens sessions 1, 2, ... and answers every frame with a result, every
 * close with its answer, until the client hangs up. */
static void script_serve(int fd, void *arg)
{
    (void)arg;
    uint64_t next_id = 1;
    ClientMessage *m;
    while ((m = fake_read(fd)) != NULL) {
        if (m->kind_case == FACEWORKER__V1__CLIENT_MESSAGE__KIND_OPEN_SESSION) {
            fake_answer_open(fd, m, next_id++, m->open_session->options);
        } else if (m->kind_case == FACEWORKER__V1__CLIENT_MESSAGE__KIND_PROCESS_FRAME) {
            answer_frame(fd, m);
        } else if (m->kind_case == FACEWORKER__V1__CLIENT_MESSAGE__KIND_CLOSE_SESSION) {
            Faceworker__V1__CloseSessionResponse closed = FACEWORKER__V1__CLOSE_SESSION_RESPONSE__INIT;
            closed.session_id = m->close_session->session_id;
            WorkerMessage w = FACEWORKER__V1__WORKER_MESSAGE__INIT;
            w.call_id = m->call_id;
            w.kind_case = FACEWORKER__V1__WORKER_MESSAGE__KIND_CLOSE_SESSION;
            w.close_session = &closed;
            fake_write(fd, &w);
        }
        faceworker__v1__client_message__free_unpacked(m, NULL);
    }
}

/* What one session heard through on_event. */
struct tally {
    fw_session *session;
    int sent;
    int results;
    bool in_order;
    int64_t last_ts;
    bool late;   /* opened with fw_open_session_async() once the loop ran */
    bool closed; /* ...and closed from its last result's handler */
    struct farm *farm;
};

struct farm {
    fake_worker *workers[CLIENTS];
    fw_client *clients[CLIENTS];
    struct tally tallies[CLIENTS * SESSIONS_PER_CLIENT];
    int answered;
    int opened;      /* sessions handed to on_opened */
    int open_errors; /* ...with anything but FW_OK, or from another client */
};

static const uint8_t jpeg_bytes[] = "not a jpeg; the fake worker does not look";

static void send_next(struct tally *t)
{
    fw_error err;
    t->sent++;
    CHECK(fw_send_jpeg(t->session, jpeg_bytes, sizeof jpeg_bytes, t->sent, &err) == FW_OK, "%s", err.message);
}

/* Each answer sends the session's next frame: the sessions run
 * interleaved on their connections, all from this thread. */
static void on_event(fw_session *s, fw_event *ev, void *data)
{
    struct farm *f = data;
    for (size_t i = 0; i < CLIENTS * SESSIONS_PER_CLIENT; i++) {
        struct tally *t = &f->tallies[i];
        if (t->session != s)
            continue;
        if (ev->type == FW_EVENT_RESULT) {
            t->results++;
            t->in_order &= ev->timestamp_ms == t->last_ts + 1 && fw_result_timestamp(ev->result) == ev->timestamp_ms;
            t->last_ts = ev->timestamp_ms;
            f->answered++;
            if (t->sent < FRAMES) {
                send_next(t);
            } else if (t->late) {
                fw_error err;
                t->closed = fw_close_session(s, &err) == FW_OK;
                CHECK(t->closed, "closing a session from a handler: %s", err.message);
                t->session = NULL;
            }
        }
    }
    fw_result_free(ev->result);
}

/* A late session is handed over: it starts sending at once. */
static void on_opened(fw_client *c, fw_session *s, const fw_error *status, void *data)
{
    struct tally *t = data;
    struct farm *f = t->farm;
    f->opened++;
    bool own = s && fw_session_id(s) != 0 && c == f->clients[(t - f->tallies) / SESSIONS_PER_CLIENT];
    if (!CHECK_AT(status->code == FW_OK && own, "%s: %s", fw_status_name(status->code), status->message)) {
        f->open_errors++;
        return;
    }
    t->session = s;
    send_next(t);
}

static bool start_farm(struct farm *f, const fw_async_handlers *h)
{
    memset(f, 0, sizeof *f);
    for (int c = 0; c < CLIENTS; c++) {
        f->clients[c] = fake_connect(script_serve, NULL, &f->workers[c]);
        if (!f->clients[c])
            return false;
        for (int k = 0; k < SESSIONS_PER_CLIENT; k++) {
            struct tally *t = &f->tallies[c * SESSIONS_PER_CLIENT + k];
            t->farm = f;
            t->in_order = true;
            t->late = k == SESSIONS_PER_CLIENT - 1;
            if (t->late)
                continue;
            fw_session_options o;
            fw_session_options_init(&o);
            o.running_mode = FW_MODE_LIVE_STREAM;
            fw_error err;
            t->session = fw_open_session(f->clients[c], &o, &err);
            if (!CHECK_AT(t->session, "%s", err.message))
                return false;
        }
        fw_error err;
        if (!CHECK_AT(fw_async_start(f->clients[c], h, &err) == FW_OK, "%s", err.message))
            return false;
    }
    return true;
}

/* With the loop running: the sessions opened before send their first
 * frames, the late ones are asked for and send theirs once opened. */
static void start_sending(struct farm *f)
{
    for (size_t i = 0; i < CLIENTS * SESSIONS_PER_CLIENT; i++) {
        struct tally *t = &f->tallies[i];
        if (!t->late) {
            send_next(t);
            continue;
        }
        fw_session_options o;
        fw_session_options_init(&o);
        o.running_mode = FW_MODE_LIVE_STREAM;
        fw_error err;
        CHECK(fw_open_session_async(f->clients[i / SESSIONS_PER_CLIENT], &o, NULL, on_opened, t, &err) == FW_OK,
              "%s", err.message);
    }
}

static void stop_farm(struct farm *f)
{
    for (int c = 0; c < CLIENTS; c++)
        if (f->clients[c])
            fake_disconnect(f->clients[c], f->workers[c]);
}

static void check_farm(const struct farm *f)
{
    CHECK(f->answered == CLIENTS * SESSIONS_PER_CLIENT * FRAMES, "%d answers", f->answered);
    CHECK(f->opened == CLIENTS && f->open_errors == 0, "each client's late session was opened once: %d, %d failed",
          f->opened, f->open_errors);
    for (size_t i = 0; i < CLIENTS * SESSIONS_PER_CLIENT; i++) {
        const struct tally *t = &f->tallies[i];
        CHECK(t->results == FRAMES && t->in_order, "session %zu: %d results, %s", i, t->results,
              t->in_order ? "in order" : "out of order");
        CHECK(!t->late || t->closed, "session %zu, opened late, was closed once done", i);
    }
}

static void test_epoll_serves_several_sessions_from_one_thread(void)
{
    struct farm f;
    fw_async_handlers h = FW_ASYNC_HANDLERS_INIT;
    h.on_event = on_event;
    h.data = &f;
    int ep = epoll_create1(EPOLL_CLOEXEC);
    REQUIRE(ep >= 0, "epoll");
    if (start_farm(&f, &h)) {
        fw_error err;
        for (int c = 0; c < CLIENTS; c++)
            CHECK(fw_epoll_attach(ep, f.clients[c], &err) == FW_OK, "%s", err.message);
        start_sending(&f);
        while (f.answered < CLIENTS * SESSIONS_PER_CLIENT * FRAMES) {
            struct epoll_event evs[16];
            int n = epoll_wait(ep, evs, 16, STUCK_MS);
            if (!CHECK_AT(n > 0, "nothing happened with %d answers", f.answered))
                break;
            for (int i = 0; i < n; i++)
                fw_epoll_dispatch(&evs[i]);
        }
        check_farm(&f);
    }
    stop_farm(&f);
    close(ep);
}

static void test_poll_serves_several_sessions_from_one_thread(void)
{
    struct farm f;
    fw_async_handlers h = FW_ASYNC_HANDLERS_INIT;
    h.on_event = on_event;
    h.data = &f;
    fw_pollset set = FW_POLLSET_INIT;
    if (start_farm(&f, &h)) {
        fw_error err;
        for (int c = 0; c < CLIENTS; c++)
            CHECK(fw_pollset_add(&set, f.clients[c], &err) == FW_OK, "%s", err.message);
        CHECK(fw_pollset_count(&set) == CLIENTS, "%zu clients in the set", fw_pollset_count(&set));
        start_sending(&f);
        while (f.answered < CLIENTS * SESSIONS_PER_CLIENT * FRAMES)
            if (!CHECK_AT(fw_pollset_run(&set, STUCK_MS) > 0, "nothing happened with %d answers", f.answered))
                break;
        check_farm(&f);
    }
    stop_farm(&f);
    CHECK(fw_pollset_count(&set) == 0, "fw_close took every client out of the set");
}

static void test_libuv_serves_several_sessions_from_one_thread(void)
{
    struct farm f;
    fw_async_handlers h = FW_ASYNC_HANDLERS_INIT;
    h.on_event = on_event;
    h.data = &f;
    uv_loop_t loop;
    REQUIRE(uv_loop_init(&loop) == 0, "uv_loop_init");
    if (start_farm(&f, &h)) {
        fw_error err;
        for (int c = 0; c < CLIENTS; c++)
            CHECK(fw_uv_attach(&loop, f.clients[c], &err) == FW_OK, "%s", err.message);
        start_sending(&f);
        while (f.answered < CLIENTS * SESSIONS_PER_CLIENT * FRAMES)
            if (!CHECK_AT(uv_run(&loop, UV_RUN_ONCE) != 0, "the loop ran dry with %d answers", f.answered))
                break;
        check_farm(&f);
    }
    stop_farm(&f);
    /* fw_close() closed the handles; the loop frees them and ends. */
    uv_run(&loop, UV_RUN_DEFAULT);
    CHECK(uv_loop_close(&loop) == 0, "no handle left on the loop");
}

/* Without a front: fw_send_nonblock(), fw_client_wants() and
 * fw_client_progress() under the caller's own poll(2), fw_poll(s, 0). */
static void test_non_blocking_calls(void)
{
    fake_worker *w = fake_worker_start(script_serve, NULL);
    REQUIRE(w, "fake worker");
    fw_error err;
    fw_client *c = fw_connect_nonblock(fake_worker_path(w), &err);
    if (!CHECK_AT(c, "%s", err.message)) {
        fake_worker_stop(w);
        return;
    }
    fw_set_auto_reconnect(c, false, NULL);
    while (fw_client_wants(c) == FW_WANT_WRITE) {
        struct pollfd p = {.fd = fw_client_fd(c), .events = POLLOUT};
        poll(&p, 1, STUCK_MS);
        REQUIRE(fw_client_progress(c, &err) == FW_OK, "%s", err.message);
    }
    CHECK(fw_client_wants(c) == FW_WANT_READ, "connected, waiting to read: %u", fw_client_wants(c));
    fw_session_options o;
    fw_session_options_init(&o);
    o.running_mode = FW_MODE_LIVE_STREAM;
    fw_session *s = fw_open_session(c, &o, &err);
    if (CHECK_AT(s, "%s", err.message)) {
        for (int i = 1; i <= 3; i++)
            CHECK(fw_send_nonblock(s, &(fw_frame){.jpeg = jpeg_bytes, .jpeg_len = 3, .timestamp_ms = i}, &err) ==
                      FW_OK,
                  "%s", err.message);
        int results = 0;
        while (results < 3) {
            struct pollfd p = {.fd = fw_client_fd(c), .events = POLLIN};
            if (fw_client_wants(c) & FW_WANT_WRITE)
                p.events |= POLLOUT;
            if (!CHECK_AT(poll(&p, 1, STUCK_MS) > 0, "no answer"))
                break;
            REQUIRE(fw_client_progress(c, &err) == FW_OK, "%s", err.message);
            fw_event ev;
            while (fw_poll(s, 0, &ev, &err) == FW_OK && ev.type == FW_EVENT_RESULT) {
                results++;
                CHECK(ev.size == sizeof ev && FW_STRUCT_HAS(fw_event, &ev, error), "fw_poll fills %u bytes", ev.size);
                CHECK(ev.timestamp_ms == results, "answer %d has timestamp %lld", results,
                      (long long)ev.timestamp_ms);
                fw_result_free(ev.result);
            }
        }
        CHECK(fw_session_pending(s) == 0, "every frame answered");
        /* Whatever the caller's struct held, nothing answered says its size. */
        fw_event none;
        memset(&none, 0xa5, sizeof none);
        CHECK(fw_poll(s, 0, &none, &err) == FW_OK && none.type == FW_EVENT_NONE && none.size == sizeof none,
              "an empty poll: type %d, %u bytes", none.type, none.size);
    }
    fake_disconnect(c, w);
}

static void test_blocking_calls_in_async_mode_are_refused(void)
{
    fake_worker *w;
    fw_client *c = fake_connect(script_serve, NULL, &w);
    REQUIRE(c, "fake worker");
    fw_error err;
    fw_session_options o;
    fw_session_options_init(&o);
    fw_session *image = fw_open_session(c, &o, &err);
    o.running_mode = FW_MODE_LIVE_STREAM;
    fw_session *live = fw_open_session(c, &o, &err);
    fw_async_handlers h = FW_ASYNC_HANDLERS_INIT;
    if (CHECK_AT(image && live, "sessions") && CHECK_AT(fw_async_start(c, &h, &err) == FW_OK, "%s", err.message)) {
        fw_result *r;
        fw_event ev;
        fw_stats stats;
        fw_stats_init(&stats);
        CHECK(fw_process_jpeg(image, jpeg_bytes, 3, 1, &r, &err) == FW_ERR_USAGE && r == NULL, "fw_process");
        CHECK(strstr(err.message, "async mode"), "says why: %s", err.message);
        CHECK(fw_poll(live, 0, &ev, &err) == FW_ERR_USAGE, "fw_poll");
        CHECK(fw_ping(c, NULL, 0, &err) == FW_ERR_USAGE, "fw_ping");
        CHECK(fw_get_stats(c, &stats, &err) == FW_ERR_USAGE, "fw_get_stats");
        CHECK(fw_open_session(c, &o, &err) == NULL && err.code == FW_ERR_USAGE, "fw_open_session");
        CHECK(fw_subscribe(c, "x", &err) == NULL && err.code == FW_ERR_USAGE, "fw_subscribe");
        CHECK(fw_reset_session(live, &err) == FW_ERR_USAGE, "fw_reset_session");
        CHECK(fw_register_buffer(c, 4096, &err) == NULL && err.code == FW_ERR_USAGE, "fw_register_buffer");
        /* What does not wait still works. */
        CHECK(fw_send_jpeg(live, jpeg_bytes, 3, 1, &err) == FW_OK, "fw_send: %s", err.message);
        CHECK(fw_close_session(image, &err) == FW_OK, "fw_close_session: %s", err.message);
    }
    fake_disconnect(c, w);
}

struct heard {
    int results, drops, restarts, errors;
    int unsized; /* events whose size does not cover this version's members */
    fw_drop_reason drop_reason;
    int order[8]; /* event types in the order heard */
    int n;
    fw_error error;
};

static void on_heard(fw_session *s, fw_event *ev, void *data)
{
    struct heard *h = data;
    (void)s;
    if (h->n < 8)
        h->order[h->n++] = ev->type;
    h->unsized += !FW_STRUCT_HAS(fw_event, ev, error);
    h->results += ev->type == FW_EVENT_RESULT;
    h->restarts += ev->type == FW_EVENT_RESTARTED;
    if (ev->type == FW_EVENT_DROPPED) {
        h->drops++;
        h->drop_reason = ev->drop_reason;
    }
    fw_result_free(ev->result);
}

static void on_broken(fw_client *c, const fw_error *err, void *data)
{
    struct heard *h = data;
    (void)c;
    h->errors++;
    h->error = *err;
}

/* First connection: a session, two frames, the first answered, then the
 * worker goes away. Second: the session again, and every frame answered. */
static void script_restart(int fd, void *arg)
{
    int *connection = arg;
    ClientMessage *open = fake_read(fd);
    if (!open)
        return;
    fake_answer_open(fd, open, 10 + (uint64_t)*connection, open->open_session->options);
    faceworker__v1__client_message__free_unpacked(open, NULL);
    if ((*connection)++ == 0) {
        ClientMessage *a = fake_read(fd), *b = fake_read(fd);
        if (a)
            answer_frame(fd, a);
        if (a)
            faceworker__v1__client_message__free_unpacked(a, NULL);
        if (b)
            faceworker__v1__client_message__free_unpacked(b, NULL);
        return;
    }
    script_serve(fd, NULL);
}

static void run_epoll_until(int ep, const int *count, int want)
{
    while (*count < want) {
        struct epoll_event evs[4];
        int n = epoll_wait(ep, evs, 4, STUCK_MS);
        if (!CHECK_AT(n > 0, "nothing happened at %d of %d", *count, want))
            return;
        for (int i = 0; i < n; i++)
            fw_epoll_dispatch(&evs[i]);
    }
}

/* Starts a fake worker running script on each of `connections`
 * connections and connects a client to it, auto-reconnect left on as
 * fw_connect() leaves it (fake_connect() turns it off): these workers come
 * back. NULL, the failure recorded and the worker stopped, if either fails;
 * fake_disconnect() ends both. */
static fw_client *connect_serving(fake_script script, void *arg, int connections, fake_worker **w)
{
    *w = fake_worker_start_serving(script, arg, connections);
    if (!CHECK_AT(*w, "fake worker"))
        return NULL;
    fw_error err;
    fw_client *c = fw_connect(fake_worker_path(*w), &err);
    if (!CHECK_AT(c, "%s", err.message))
        fake_worker_stop(*w);
    return c;
}

static void test_auto_reconnect_is_heard_as_in_blocking_mode(void)
{
    int connection = 0;
    fake_worker *w;
    fw_client *c = connect_serving(script_restart, &connection, 2, &w);
    if (!c)
        return;
    fw_error err;
    fw_session_options o;
    fw_session_options_init(&o);
    o.running_mode = FW_MODE_LIVE_STREAM;
    fw_session *s = fw_open_session(c, &o, &err);
    struct heard heard = {0};
    fw_async_handlers h = FW_ASYNC_HANDLERS_INIT;
    h.on_event = on_heard;
    h.on_connection_error = on_broken;
    h.data = &heard;
    int ep = epoll_create1(EPOLL_CLOEXEC);
    if (CHECK_AT(s, "session") && CHECK_AT(fw_async_start(c, &h, &err) == FW_OK, "%s", err.message) &&
        CHECK_AT(fw_epoll_attach(ep, c, &err) == FW_OK, "%s", err.message)) {
        CHECK(fw_send_jpeg(s, jpeg_bytes, 3, 1, &err) == FW_OK, "%s", err.message);
        CHECK(fw_send_jpeg(s, jpeg_bytes, 3, 2, &err) == FW_OK, "%s", err.message);
        run_epoll_until(ep, &heard.restarts, 1);
        CHECK(heard.n == 3 && heard.order[0] == FW_EVENT_RESULT && heard.order[1] == FW_EVENT_DROPPED &&
                  heard.order[2] == FW_EVENT_RESTARTED,
              "a result, a drop, then the restart: %d events", heard.n);
        CHECK(heard.drop_reason == FW_DROP_WORKER_RESTARTED, "dropped by the restart: %d", heard.drop_reason);
        CHECK(fw_session_id(s) == 11, "the session was opened again: id %llu",
              (unsigned long long)fw_session_id(s));
        CHECK(fw_send_jpeg(s, jpeg_bytes, 3, 3, &err) == FW_OK, "%s", err.message);
        run_epoll_until(ep, &heard.results, 2);
        CHECK(heard.errors == 0, "no connection error: %s", heard.error.message);
        CHECK(fw_session_pending(s) == 0, "every frame answered once");
        CHECK(heard.unsized == 0, "every event says it holds every member: %d do not", heard.unsized);
    }
    fake_disconnect(c, w);
    close(ep);
}

/* A reader error (a bad flag byte) reaches on_connection_error with its
 * reason; the client connects again with fw_reconnect() and works. */
static void script_bad_then_good(int fd, void *arg)
{
    int *connection = arg;
    if ((*connection)++ > 0) {
        script_serve(fd, NULL);
        return;
    }
    ClientMessage *open = fake_read(fd);
    if (!open)
        return;
    fake_answer_open(fd, open, 5, open->open_session->options);
    faceworker__v1__client_message__free_unpacked(open, NULL);
    ClientMessage *frame = fake_read(fd);
    const uint8_t compressed[] = {1, 0, 0, 0, 0};
    fake_write_bytes(fd, compressed, sizeof compressed);
    if (frame)
        faceworker__v1__client_message__free_unpacked(frame, NULL);
    fake_wait_for_hangup(fd);
}

static void test_reader_error_is_told_and_the_client_connects_again(void)
{
    int connection = 0;
    fake_worker *w;
    fw_client *c = connect_serving(script_bad_then_good, &connection, 2, &w);
    if (!c)
        return;
    fw_error err;
    fw_session_options o;
    fw_session_options_init(&o);
    o.running_mode = FW_MODE_LIVE_STREAM;
    fw_session *s = fw_open_session(c, &o, &err);
    struct heard heard = {0};
    fw_async_handlers h = FW_ASYNC_HANDLERS_INIT;
    h.on_event = on_heard;
    h.on_connection_error = on_broken;
    h.data = &heard;
    int ep = epoll_create1(EPOLL_CLOEXEC);
    if (CHECK_AT(s, "session") && CHECK_AT(fw_async_start(c, &h, &err) == FW_OK, "%s", err.message) &&
        CHECK_AT(fw_epoll_attach(ep, c, &err) == FW_OK, "%s", err.message)) {
        CHECK(fw_send_jpeg(s, jpeg_bytes, 3, 1, &err) == FW_OK, "%s", err.message);
        run_epoll_until(ep, &heard.errors, 1);
        CHECK(heard.error.code == FW_ERR_PROTOCOL && strstr(heard.error.message, "flag byte 0x01"),
              "the reader's reason: %s %s", fw_status_name(heard.error.code), heard.error.message);
        CHECK(fw_send_jpeg(s, jpeg_bytes, 3, 2, &err) == FW_ERR_PROTOCOL, "the broken connection takes nothing");
        CHECK(fw_reconnect(c, NULL, &err) == FW_OK, "%s", err.message);
        run_epoll_until(ep, &heard.restarts, 1);
        CHECK(heard.drops == 1 && heard.drop_reason == FW_DROP_WORKER_RESTARTED, "the cut frame dropped");
        CHECK(fw_send_jpeg(s, jpeg_bytes, 3, 3, &err) == FW_OK, "%s", err.message);
        run_epoll_until(ep, &heard.results, 1);
        CHECK(heard.errors == 1, "told once");
    }
    fake_disconnect(c, w);
    close(ep);
}

/* Answers a Subscribe, then at once sends the followed session's result,
 * drop and end: what a blocking fw_subscribe() may read past its answer. */
static void script_subscription(int fd, void *arg)
{
    (void)arg;
    ClientMessage *m = fake_read(fd);
    if (!m)
        return;
    Faceworker__V1__SubscribeResponse r = FACEWORKER__V1__SUBSCRIBE_RESPONSE__INIT;
    r.subscription_id = 4;
    r.session_id = 9;
    r.name = m->subscribe->name;
    r.queue_limit = 8;
    WorkerMessage w = FACEWORKER__V1__WORKER_MESSAGE__INIT;
    w.call_id = m->call_id;
    w.kind_case = FACEWORKER__V1__WORKER_MESSAGE__KIND_SUBSCRIBE;
    w.subscribe = &r;
    Faceworker__V1__FrameResult result = FACEWORKER__V1__FRAME_RESULT__INIT;
    result.session_id = 9;
    result.timestamp_ms = 1;
    Faceworker__V1__FrameDropped drop = FACEWORKER__V1__FRAME_DROPPED__INIT;
    drop.session_id = 9;
    drop.timestamp_ms = 2;
    drop.reason = FACEWORKER__V1__FRAME_DROPPED__REASON__REASON_REPLACED;
    Faceworker__V1__SessionEnded end = FACEWORKER__V1__SESSION_ENDED__INIT;
    end.reason = FACEWORKER__V1__SESSION_ENDED__REASON__REASON_SESSION_CLOSED;
    Faceworker__V1__SessionEvent events[3] = {FACEWORKER__V1__SESSION_EVENT__INIT, FACEWORKER__V1__SESSION_EVENT__INIT,
                                               FACEWORKER__V1__SESSION_EVENT__INIT};
    events[0].event_case = FACEWORKER__V1__SESSION_EVENT__EVENT_FRAME_RESULT;
    events[0].frame_result = &result;
    events[1].event_case = FACEWORKER__V1__SESSION_EVENT__EVENT_FRAME_DROPPED;
    events[1].frame_dropped = &drop;
    events[2].event_case = FACEWORKER__V1__SESSION_EVENT__EVENT_SESSION_ENDED;
    events[2].session_ended = &end;
    WorkerMessage e[3];
    for (int i = 0; i < 3; i++) {
        faceworker__v1__worker_message__init(&e[i]);
        e[i].call_id = m->call_id;
        e[i].kind_case = FACEWORKER__V1__WORKER_MESSAGE__KIND_SESSION_EVENT;
        e[i].session_event = &events[i];
        events[i].subscription_id = 4;
    }
    /* One write: the answer and the events reach the client together. */
    const WorkerMessage *out[4] = {&w, &e[0], &e[1], &e[2]};
    uint8_t bytes[4096];
    size_t len = 0;
    for (int i = 0; i < 4; i++) {
        size_t n = faceworker__v1__worker_message__get_packed_size(out[i]);
        bytes[len] = 0;
        bytes[len + 1] = (uint8_t)(n >> 24);
        bytes[len + 2] = (uint8_t)(n >> 16);
        bytes[len + 3] = (uint8_t)(n >> 8);
        bytes[len + 4] = (uint8_t)n;
        faceworker__v1__worker_message__pack(out[i], bytes + len + 5);
        len += 5 + n;
    }
    fake_write_bytes(fd, bytes, len);
    faceworker__v1__client_message__free_unpacked(m, NULL);
    fake_wait_for_hangup(fd);
}

struct sub_heard {
    int types[4];
    int n;
    int unsized;
    int64_t result_ts;
};

static void on_sub_event(fw_subscription *sub, fw_subscription_event *ev, void *data)
{
    struct sub_heard *h = data;
    (void)sub;
    if (h->n < 4)
        h->types[h->n] = ev->type;
    h->n++;
    h->unsized += ev->size != sizeof *ev || !FW_STRUCT_HAS(fw_subscription_event, ev, end_reason);
    if (ev->type == FW_SUB_RESULT)
        h->result_ts = fw_result_timestamp(ev->result);
    fw_result_free(ev->result);
}

/* A subscription's events reach on_subscription_event in order, even those
 * the blocking fw_subscribe() read before the front started. */
static void test_a_subscription_is_heard_through_the_front(void)
{
    fake_worker *w;
    fw_client *c = fake_connect(script_subscription, NULL, &w);
    REQUIRE(c, "fake worker");
    fw_error err;
    fw_subscription *sub = fw_subscribe(c, "door", &err);
    struct sub_heard heard = {0};
    fw_async_handlers h = FW_ASYNC_HANDLERS_INIT;
    h.on_subscription_event = on_sub_event;
    h.data = &heard;
    int ep = epoll_create1(EPOLL_CLOEXEC);
    if (CHECK_AT(sub, "%s", err.message) && CHECK_AT(fw_async_start(c, &h, &err) == FW_OK, "%s", err.message) &&
        CHECK_AT(fw_epoll_attach(ep, c, &err) == FW_OK, "%s", err.message)) {
        run_epoll_until(ep, &heard.n, 3);
        CHECK(heard.n == 3 && heard.types[0] == FW_SUB_RESULT && heard.types[1] == FW_SUB_DROPPED &&
                  heard.types[2] == FW_SUB_ENDED,
              "result, drop, end: %d events", heard.n);
        CHECK(heard.result_ts == 1, "the result of frame 1: %lld", (long long)heard.result_ts);
        CHECK(heard.unsized == 0, "every event says it holds every member: %d do not", heard.unsized);
        CHECK(fw_unsubscribe(sub, &err) == FW_OK, "an ended subscription is freed: %s", err.message);
    }
    fake_disconnect(c, w);
    close(ep);
}

/* Opens one session, then hangs up. */
static void script_open_then_leave(int fd, void *arg)
{
    (void)arg;
    ClientMessage *open = fake_read(fd);
    if (open) {
        fake_answer_open(fd, open, 3, open->open_session->options);
        faceworker__v1__client_message__free_unpacked(open, NULL);
    }
}

/* Without auto-reconnect a lost connection is told once, whether a read
 * or a write finds it, and every send after fails with its error. */
static void test_a_lost_connection_is_told_once(void)
{
    fake_worker *w;
    fw_client *c = fake_connect(script_open_then_leave, NULL, &w);
    REQUIRE(c, "fake worker");
    fw_error err;
    fw_session *s = open_session_in(c, FW_MODE_LIVE_STREAM, false);
    struct heard heard = {0};
    fw_async_handlers h = FW_ASYNC_HANDLERS_INIT;
    h.on_event = on_heard;
    h.on_connection_error = on_broken;
    h.data = &heard;
    int ep = epoll_create1(EPOLL_CLOEXEC);
    if (CHECK_AT(s, "session") && CHECK_AT(fw_async_start(c, &h, &err) == FW_OK, "%s", err.message) &&
        CHECK_AT(fw_epoll_attach(ep, c, &err) == FW_OK, "%s", err.message)) {
        int sent = 0;
        while (heard.errors == 0 && sent < 1000) {
            if (fw_send_jpeg(s, jpeg_bytes, 3, ++sent, &err) != FW_OK)
                CHECK(err.code == FW_ERR_CLOSED || err.code == FW_ERR_IO, "the send says why: %s", err.message);
            /* The break comes to the loop: the closed socket reads as
             * readable, a send that found it sets the timer. */
            struct epoll_event evs[4];
            int n = epoll_wait(ep, evs, 4, STUCK_MS);
            if (!CHECK_AT(n > 0, "nothing happened after %d frames", sent))
                break;
            for (int i = 0; i < n; i++)
                fw_epoll_dispatch(&evs[i]);
        }
        CHECK(heard.errors == 1, "told once: %d", heard.errors);
        CHECK(heard.error.code == FW_ERR_CLOSED || heard.error.code == FW_ERR_IO, "%s: %s",
              fw_status_name(heard.error.code), heard.error.message);
        CHECK(fw_send_jpeg(s, jpeg_bytes, 3, ++sent, &err) == heard.error.code, "a later send fails alike");
        CHECK(heard.errors == 1, "and is not told again: %d", heard.errors);
    }
    fake_disconnect(c, w);
    close(ep);
}

/* The callback of an fw_open_session_async() that did not return FW_OK. */
static void on_never_opened(fw_client *c, fw_session *s, const fw_error *status, void *data)
{
    (void)c;
    (void)s;
    (void)data;
    CHECK(false, "a refused open's callback ran: %s", status->message);
}

/* The other client of test_the_loop_serves_others_while_a_client_reconnects:
 * one live session that sends its next frame on every result. */
struct neighbour {
    fw_session *session;
    int sent, results;
    bool sending;
};

static void on_neighbour_event(fw_session *s, fw_event *ev, void *data)
{
    struct neighbour *n = data;
    fw_result_free(ev->result);
    if (ev->type != FW_EVENT_RESULT)
        return;
    n->results++;
    fw_error err;
    if (n->sending)
        CHECK(fw_send_jpeg(s, jpeg_bytes, 3, ++n->sent, &err) == FW_OK, "%s", err.message);
}

/* One of the three adapters' loops, for a test that runs on each. */
enum loop_kind { LOOP_EPOLL, LOOP_POLL, LOOP_UV };

struct loop {
    enum loop_kind kind;
    int ep;
    fw_pollset set;
    uv_loop_t uv;
};

static bool loop_init(struct loop *l, enum loop_kind kind)
{
    memset(l, 0, sizeof *l);
    l->kind = kind;
    l->ep = -1;
    if (kind == LOOP_EPOLL)
        return (l->ep = epoll_create1(EPOLL_CLOEXEC)) >= 0;
    if (kind == LOOP_UV)
        return uv_loop_init(&l->uv) == 0;
    return true;
}

static int loop_attach(struct loop *l, fw_client *c, fw_error *err)
{
    switch (l->kind) {
    case LOOP_EPOLL:
        return fw_epoll_attach(l->ep, c, err);
    case LOOP_POLL:
        return fw_pollset_add(&l->set, c, err);
    default:
        return fw_uv_attach(&l->uv, c, err);
    }
}

/* One turn of the loop; false when nothing happened in STUCK_MS. */
static bool loop_once(struct loop *l)
{
    switch (l->kind) {
    case LOOP_EPOLL: {
        struct epoll_event evs[8];
        int n = epoll_wait(l->ep, evs, 8, STUCK_MS);
        for (int i = 0; i < n; i++)
            fw_epoll_dispatch(&evs[i]);
        return n > 0;
    }
    case LOOP_POLL:
        return fw_pollset_run(&l->set, STUCK_MS) > 0;
    default:
        return uv_run(&l->uv, UV_RUN_ONCE) != 0;
    }
}

static void run_loop_until(struct loop *l, const int *count, int want)
{
    while (*count < want)
        if (!CHECK_AT(loop_once(l), "nothing happened at %d of %d", *count, want))
            return;
}

/* Once every client is closed. */
static void loop_close(struct loop *l)
{
    if (l->kind == LOOP_EPOLL) {
        close(l->ep);
    } else if (l->kind == LOOP_UV) {
        uv_run(&l->uv, UV_RUN_DEFAULT);
        CHECK(uv_loop_close(&l->uv) == 0, "no handle left on the loop");
    }
}

/* One thread, two clients on two workers. The first's worker goes away:
 * while its client reconnects, the loop keeps serving the second, whose
 * results keep coming; once the worker is back, the first session's
 * results resume, after its cut frame's drop and one restart notice. */
static void check_the_loop_serves_others_while_a_client_reconnects(enum loop_kind kind)
{
    struct loop loop;
    REQUIRE(loop_init(&loop, kind), "a loop");
    int connection = 0;
    fake_worker *wa, *wb;
    fw_client *a = connect_serving(script_restart, &connection, 1, &wa);
    fw_client *b = a ? fake_connect(script_serve, NULL, &wb) : NULL;
    if (!a || !CHECK_AT(b, "connected")) {
        if (a)
            fake_disconnect(a, wa);
        loop_close(&loop);
        return;
    }
    fw_error err;
    fw_reconnect_options o;
    fw_reconnect_options_init(&o);
    o.initial_delay_ms = 10;
    o.max_delay_ms = 50;
    o.deadline_ms = 3 * STUCK_MS;
    /* An attempt may wait for its answers until the deadline: a loop that
     * waited with it would serve no one else until the reconnect gave up. */
    fw_set_auto_reconnect(a, true, &o);
    fw_session *sa = open_session_in(a, FW_MODE_LIVE_STREAM, false);
    struct neighbour n = {.sending = true};
    n.session = open_session_in(b, FW_MODE_LIVE_STREAM, false);
    struct heard heard = {0};
    fw_async_handlers ha = FW_ASYNC_HANDLERS_INIT, hb = FW_ASYNC_HANDLERS_INIT;
    ha.on_event = on_heard;
    ha.on_connection_error = on_broken;
    ha.data = &heard;
    hb.on_event = on_neighbour_event;
    hb.data = &n;
    if (CHECK_AT(sa && n.session, "sessions") && CHECK_AT(fw_async_start(a, &ha, &err) == FW_OK, "%s", err.message) &&
        CHECK_AT(fw_async_start(b, &hb, &err) == FW_OK, "%s", err.message) &&
        CHECK_AT(loop_attach(&loop, a, &err) == FW_OK && loop_attach(&loop, b, &err) == FW_OK, "%s",
                 err.message)) {
        CHECK(fw_send_jpeg(sa, jpeg_bytes, 3, 1, &err) == FW_OK, "%s", err.message);
        CHECK(fw_send_jpeg(sa, jpeg_bytes, 3, 2, &err) == FW_OK, "%s", err.message);
        CHECK(fw_send_jpeg(n.session, jpeg_bytes, 3, ++n.sent, &err) == FW_OK, "%s", err.message);
        /* The worker answered frame 1 and went away; frame 2 is dropped
         * once the reconnect begins. Its socket still takes connections,
         * which wait unanswered in its queue. */
        run_loop_until(&loop, &heard.drops, 1);
        int before = n.results;
        run_loop_until(&loop, &n.results, before + 20);
        CHECK(heard.restarts == 0 && heard.results == 1, "the first client is still away: %d restarts, %d results",
              heard.restarts, heard.results);
        CHECK(fw_send_jpeg(sa, jpeg_bytes, 3, 3, &err) == FW_UNAVAILABLE, "a frame meanwhile is refused: %s",
              fw_status_name(err.code));
        CHECK(fw_open_session_async(a, NULL, NULL, on_never_opened, NULL, &err) == FW_UNAVAILABLE &&
                  contains(err.message, "connecting again"),
              "so is a session: %s %s", fw_status_name(err.code), err.message);
        REQUIRE(fake_worker_serve_again(wa, script_serve, NULL, 1), "the worker back");
        run_loop_until(&loop, &heard.restarts, 1);
        before = n.results;
        CHECK(fw_send_jpeg(sa, jpeg_bytes, 3, 4, &err) == FW_OK, "%s", err.message);
        run_loop_until(&loop, &heard.results, 2);
        run_loop_until(&loop, &n.results, before + 1);
        CHECK(heard.n == 4 && heard.order[0] == FW_EVENT_RESULT && heard.order[1] == FW_EVENT_DROPPED &&
                  heard.order[2] == FW_EVENT_RESTARTED && heard.order[3] == FW_EVENT_RESULT,
              "a result, the cut frame's drop, the restart once, a result: %d events", heard.n);
        CHECK(heard.drop_reason == FW_DROP_WORKER_RESTARTED, "dropped by the restart: %d", heard.drop_reason);
        CHECK(heard.errors == 0, "no connection error: %s", heard.error.message);
        CHECK(fw_session_pending(sa) == 0, "every frame answered once");
        n.sending = false;
    }
    fake_disconnect(a, wa);
    fake_disconnect(b, wb);
    loop_close(&loop);
}

static void test_the_epoll_loop_serves_others_while_a_client_reconnects(void)
{
    check_the_loop_serves_others_while_a_client_reconnects(LOOP_EPOLL);
}

static void test_the_poll_loop_serves_others_while_a_client_reconnects(void)
{
    check_the_loop_serves_others_while_a_client_reconnects(LOOP_POLL);
}

static void test_the_libuv_loop_serves_others_while_a_client_reconnects(void)
{
    check_the_loop_serves_others_while_a_client_reconnects(LOOP_UV);
}

/* Fills the listen queue at path with connections no one accepts; how
 * many it took, their descriptors in fds. */
static int fill_listen_queue(const char *path, int *fds, int cap)
{
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    snprintf(addr.sun_path, sizeof addr.sun_path, "%s", path);
    int n = 0;
    while (n < cap) {
        int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        if (fd < 0)
            break;
        if (connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0) {
            close(fd);
            break;
        }
        fds[n++] = fd;
    }
    return n;
}

/* The worker went away, and its socket's listen queue is full (a worker
 * under socket activation that has not started yet, with many clients):
 * each attempt finds the queue full, and the next waits on the timer
 * rather than on a socket that reads as writable before it can connect.
 * Between attempts the client has no descriptor for the loop to watch. */
static void test_a_full_listen_queue_is_tried_again_on_the_timer(void)
{
    int connection = 0;
    fake_worker *w;
    fw_client *c = connect_serving(script_restart, &connection, 1, &w);
    if (!c)
        return;
    fw_error err;
    fw_reconnect_options o;
    fw_reconnect_options_init(&o);
    o.initial_delay_ms = 1;
    o.max_delay_ms = 5;
    o.deadline_ms = 3 * STUCK_MS;
    fw_set_auto_reconnect(c, true, &o);
    fw_session *s = open_session_in(c, FW_MODE_LIVE_STREAM, false);
    int queued[8];
    int n = fill_listen_queue(fake_worker_path(w), queued, 8);
    struct heard heard = {0};
    fw_async_handlers h = FW_ASYNC_HANDLERS_INIT;
    h.on_event = on_heard;
    h.on_connection_error = on_broken;
    h.data = &heard;
    int ep = epoll_create1(EPOLL_CLOEXEC);
    if (CHECK_AT(s && n > 0 && n < 8, "a session, a full queue of %d", n) &&
        CHECK_AT(fw_async_start(c, &h, &err) == FW_OK, "%s", err.message) &&
        CHECK_AT(fw_epoll_attach(ep, c, &err) == FW_OK, "%s", err.message)) {
        CHECK(fw_send_jpeg(s, jpeg_bytes, 3, 1, &err) == FW_OK, "%s", err.message);
        CHECK(fw_send_jpeg(s, jpeg_bytes, 3, 2, &err) == FW_OK, "%s", err.message);
        run_epoll_until(ep, &heard.drops, 1);
        int turns = 0;
        bool waiting = true;
        for (; turns < 20 && waiting; turns++) {
            struct epoll_event evs[4];
            int k = epoll_wait(ep, evs, 4, STUCK_MS);
            for (int i = 0; i < k; i++)
                fw_epoll_dispatch(&evs[i]);
            waiting = k > 0 && fw_client_fd(c) < 0 && fw_client_wants(c) == 0;
        }
        CHECK(waiting && turns == 20 && heard.restarts == 0 && heard.errors == 0,
              "20 turns of the loop, each an attempt that found the queue full, then a wait with no socket: "
              "%d turns, fd %d, wants %u",
              turns, fw_client_fd(c), fw_client_wants(c));
        REQUIRE(fake_worker_serve_again(w, script_serve, NULL, 1), "the worker back");
        run_epoll_until(ep, &heard.restarts, 1);
        CHECK(fw_send_jpeg(s, jpeg_bytes, 3, 3, &err) == FW_OK, "%s", err.message);
        run_epoll_until(ep, &heard.results, 2);
        CHECK(heard.restarts == 1 && heard.errors == 0, "back, told once: %d restarts", heard.restarts);
    }
    for (int i = 0; i < n; i++)
        close(queued[i]);
    fake_disconnect(c, w);
    close(ep);
}

/* A worker that opens two sessions and goes away, then, on the next
 * connection, holds its answers to their re-opening until the test lets
 * it answer, and records the sessions it is asked to close. */
struct held_opens {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int connection;
    int opens_read;
    bool release;
    uint64_t given[2]; /* the ids it gave, in the order it answered */
    int closes;
    uint64_t closed_id;
};

static void script_hold_opens(int fd, void *arg)
{
    struct held_opens *h = arg;
    if (h->connection++ == 0) {
        for (uint64_t id = 1; id <= 2; id++) {
            ClientMessage *open = fake_read(fd);
            if (!open)
                return;
            fake_answer_open(fd, open, id, open->open_session->options);
            faceworker__v1__client_message__free_unpacked(open, NULL);
        }
        return;
    }
    ClientMessage *opens[2] = {fake_read(fd), NULL};
    opens[1] = opens[0] ? fake_read(fd) : NULL;
    pthread_mutex_lock(&h->lock);
    h->opens_read = (opens[0] != NULL) + (opens[1] != NULL);
    while (!h->release)
        pthread_cond_wait(&h->cond, &h->lock);
    pthread_mutex_unlock(&h->lock);
    for (int i = 0; i < 2 && opens[i]; i++) {
        h->given[i] = 21 + (uint64_t)i;
        fake_answer_open(fd, opens[i], h->given[i], opens[i]->open_session->options);
        faceworker__v1__client_message__free_unpacked(opens[i], NULL);
    }
    ClientMessage *m;
    while ((m = fake_read(fd)) != NULL) {
        if (m->kind_case == FACEWORKER__V1__CLIENT_MESSAGE__KIND_CLOSE_SESSION) {
            pthread_mutex_lock(&h->lock);
            h->closes++;
            h->closed_id = m->close_session->session_id;
            pthread_mutex_unlock(&h->lock);
        } else if (m->kind_case == FACEWORKER__V1__CLIENT_MESSAGE__KIND_PROCESS_FRAME) {
            answer_frame(fd, m);
        }
        faceworker__v1__client_message__free_unpacked(m, NULL);
    }
}

static int opens_read(struct held_opens *h)
{
    pthread_mutex_lock(&h->lock);
    int n = h->opens_read;
    pthread_mutex_unlock(&h->lock);
    return n;
}

static void release(struct held_opens *h)
{
    pthread_mutex_lock(&h->lock);
    h->release = true;
    pthread_cond_signal(&h->cond);
    pthread_mutex_unlock(&h->lock);
}

/* A session closed while the reconnect is asking for it again: nothing is
 * sent for its old id, and once the worker has opened it again it is
 * closed there, under its new id; the other session comes back as ever. */
static void test_a_session_closed_while_it_is_opened_again(void)
{
    struct held_opens held = {.lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER};
    fake_worker *w;
    fw_client *c = connect_serving(script_hold_opens, &held, 2, &w);
    if (!c)
        return;
    fw_error err;
    fw_reconnect_options o;
    fw_reconnect_options_init(&o);
    o.initial_delay_ms = 1;
    o.deadline_ms = 3 * STUCK_MS;
    fw_set_auto_reconnect(c, true, &o);
    fw_session *kept = open_session_in(c, FW_MODE_LIVE_STREAM, false);
    fw_session *closed = open_session_in(c, FW_MODE_LIVE_STREAM, false);
    struct heard heard = {0};
    fw_async_handlers h = FW_ASYNC_HANDLERS_INIT;
    h.on_event = on_heard;
    h.on_connection_error = on_broken;
    h.data = &heard;
    int ep = epoll_create1(EPOLL_CLOEXEC);
    if (CHECK_AT(kept && closed, "sessions") && CHECK_AT(fw_async_start(c, &h, &err) == FW_OK, "%s", err.message) &&
        CHECK_AT(fw_epoll_attach(ep, c, &err) == FW_OK, "%s", err.message)) {
        /* The first connection is gone; the loop finds it and connects
         * again, and the worker holds both sessions' re-opening. */
        for (int rounds = 0; opens_read(&held) < 2 && rounds < STUCK_MS / 10; rounds++) {
            struct epoll_event evs[4];
            int n = epoll_wait(ep, evs, 4, 10);
            for (int i = 0; i < n; i++)
                fw_epoll_dispatch(&evs[i]);
        }
        CHECK(opens_read(&held) == 2 && heard.errors == 0, "both sessions asked for again: %d",
              opens_read(&held));
        CHECK(fw_close_session(closed, &err) == FW_OK, "%s", err.message);
        release(&held);
        run_epoll_until(ep, &heard.restarts, 1);
        CHECK(fw_send_jpeg(kept, jpeg_bytes, 3, 1, &err) == FW_OK, "%s", err.message);
        run_epoll_until(ep, &heard.results, 1);
        uint64_t id = fw_session_id(kept);
        uint64_t other = id == held.given[0] ? held.given[1] : held.given[0];
        pthread_mutex_lock(&held.lock);
        CHECK(held.closes == 1 && held.closed_id == other,
              "the worker closed the session it opened again for the closed one: %d closes, id %llu of %llu", held.closes,
              (unsigned long long)held.closed_id, (unsigned long long)other);
        pthread_mutex_unlock(&held.lock);
        CHECK((id == 21 || id == 22) && heard.restarts == 1 && heard.errors == 0,
              "the kept session is back, told once: id %llu, %d restarts", (unsigned long long)id, heard.restarts);
    }
    release(&held);
    fake_disconnect(c, w);
    close(ep);
}

/* Opens every session it is asked for, but refuses the name "taken" and
 * never answers for the name "silent". */
static void script_opens(int fd, void *arg)
{
    (void)arg;
    uint64_t next_id = 1;
    ClientMessage *m;
    while ((m = fake_read(fd)) != NULL) {
        if (m->kind_case == FACEWORKER__V1__CLIENT_MESSAGE__KIND_OPEN_SESSION) {
            const char *name = m->open_session->name ? m->open_session->name : "";
            if (strcmp(name, "taken") == 0)
                fake_write_status(fd, m->call_id, FACEWORKER__V1__STATUS__CODE__ALREADY_EXISTS,
                                  "a session named \"taken\" is open");
            else if (strcmp(name, "silent") != 0)
                fake_answer_open(fd, m, next_id++, m->open_session->options);
        }
        faceworker__v1__client_message__free_unpacked(m, NULL);
    }
}

struct opens_heard {
    int calls;
    fw_session *sessions[4];
    fw_error status[4];
};

static void on_open_heard(fw_client *c, fw_session *s, const fw_error *status, void *data)
{
    struct opens_heard *h = data;
    (void)c;
    if (h->calls < 4) {
        h->sessions[h->calls] = s;
        h->status[h->calls] = *status;
    }
    h->calls++;
}

/* Each fw_open_session_async() that returned FW_OK is told once: the
 * session, the worker's refusal, or, at fw_close(), that it never came;
 * every one that did not is never told. */
static void test_sessions_opened_while_the_loop_runs(void)
{
    fake_worker *w;
    fw_client *c = fake_connect(script_opens, NULL, &w);
    REQUIRE(c, "fake worker");
    fw_error err;
    struct opens_heard heard = {0};
    fw_session_options o;
    fw_session_options_init(&o);
    CHECK(fw_open_session_async(c, &o, "door", on_never_opened, NULL, &err) == FW_ERR_USAGE &&
              contains(err.message, "not in async mode"),
          "before fw_async_start: %s %s", fw_status_name(err.code), err.message);
    fw_async_handlers h = FW_ASYNC_HANDLERS_INIT;
    int ep = epoll_create1(EPOLL_CLOEXEC);
    if (CHECK_AT(fw_async_start(c, &h, &err) == FW_OK, "%s", err.message) &&
        CHECK_AT(fw_epoll_attach(ep, c, &err) == FW_OK, "%s", err.message)) {
        CHECK(fw_open_session_async(NULL, &o, NULL, on_never_opened, NULL, &err) == FW_ERR_USAGE &&
                  contains(err.message, "no client"),
              "no client: %s", err.message);
        CHECK(fw_open_session_async(c, &o, NULL, NULL, NULL, &err) == FW_ERR_USAGE &&
                  contains(err.message, "no callback"),
              "no callback: %s", err.message);
        fw_session_options unsized = o;
        unsized.size = 3;
        CHECK(fw_open_session_async(c, &unsized, NULL, on_never_opened, NULL, &err) == FW_ERR_USAGE &&
                  contains(err.message, "size"),
              "options of no version's size: %s", err.message);
        CHECK(fw_open_named_session(c, &o, "door", &err) == NULL && err.code == FW_ERR_USAGE &&
                  contains(err.message, "fw_open_session_async"),
              "the blocking open is refused, and says what to use: %s", err.message);
        CHECK(fw_open_session_async(c, &o, "taken", on_open_heard, &heard, &err) == FW_OK, "%s", err.message);
        CHECK(fw_open_session_async(c, &o, "door", on_open_heard, &heard, &err) == FW_OK, "%s", err.message);
        run_epoll_until(ep, &heard.calls, 2);
        CHECK(heard.calls == 2 && heard.status[0].code == FW_ALREADY_EXISTS && heard.sessions[0] == NULL &&
                  contains(heard.status[0].message, "is open"),
              "the refusal, in the worker's words: %s %s", fw_status_name(heard.status[0].code),
              heard.status[0].message);
        CHECK(heard.status[1].code == FW_OK && heard.sessions[1] && strcmp(fw_session_name(heard.sessions[1]), "door") == 0 &&
                  fw_session_id(heard.sessions[1]) == 1,
              "the session, named: %s", heard.status[1].message);
        CHECK(fw_open_session_async(c, &o, "silent", on_open_heard, &heard, &err) == FW_OK, "%s", err.message);
    }
    fake_disconnect(c, w);
    close(ep);
    CHECK(heard.calls == 3 && heard.status[2].code == FW_ERR_CLOSED && heard.sessions[2] == NULL,
          "an open never answered is told at fw_close: %d calls, %s", heard.calls,
          fw_status_name(heard.status[2].code));
}

/* Against a real worker: live sessions of astronaut.jpg on two
 * connections, every frame answered with a result or a drop. */
static const char *fixtures_dir;
static const char *worker_socket;

struct live_tally {
    fw_session *session;
    int sent, results, drops, faces;
};

struct live_farm {
    struct live_tally t[4];
    const uint8_t *jpeg;
    size_t len;
    int answered;
};

static void on_live_event(fw_session *s, fw_event *ev, void *data)
{
    struct live_farm *f = data;
    for (int i = 0; i < 4; i++) {
        struct live_tally *t = &f->t[i];
        if (t->session != s || (ev->type != FW_EVENT_RESULT && ev->type != FW_EVENT_DROPPED))
            continue;
        f->answered++;
        if (ev->type == FW_EVENT_RESULT) {
            t->results++;
            t->faces += fw_result_face_count(ev->result) == 1;
        } else {
            t->drops++;
        }
        fw_error err;
        if (t->sent < FRAMES && fw_send_jpeg(s, f->jpeg, f->len, ++t->sent, &err) != FW_OK)
            CHECK(false, "%s", err.message);
    }
    fw_result_free(ev->result);
}

static void test_epoll_serves_a_real_workers_live_sessions(void)
{
    struct live_farm f = {0};
    size_t len;
    uint8_t *jpeg = read_fixture(fixtures_dir, "astronaut.jpg", &len);
    REQUIRE(jpeg, "fixture");
    f.jpeg = jpeg;
    f.len = len;
    fw_async_handlers h = FW_ASYNC_HANDLERS_INIT;
    h.on_event = on_live_event;
    h.data = &f;
    int ep = epoll_create1(EPOLL_CLOEXEC);
    fw_client *clients[2] = {connect_worker(worker_socket), connect_worker(worker_socket)};
    fw_error err;
    bool ready = clients[0] && clients[1];
    for (int i = 0; ready && i < 4; i++)
        ready = (f.t[i].session = open_session_in(clients[i / 2], FW_MODE_LIVE_STREAM, true)) != NULL;
    for (int k = 0; ready && k < 2; k++)
        ready = CHECK_AT(fw_async_start(clients[k], &h, &err) == FW_OK && fw_epoll_attach(ep, clients[k], &err) == FW_OK,
                         "%s", err.message);
    if (ready) {
        for (int i = 0; i < 4; i++)
            CHECK(fw_send_jpeg(f.t[i].session, jpeg, len, ++f.t[i].sent, &err) == FW_OK, "%s", err.message);
        run_epoll_until(ep, &f.answered, 4 * FRAMES);
        for (int i = 0; i < 4; i++)
            CHECK(f.t[i].results + f.t[i].drops == FRAMES && f.t[i].results >= 1 && f.t[i].faces == f.t[i].results,
                  "session %d: %d results with the face, %d drops", i, f.t[i].faces, f.t[i].drops);
    }
    fw_close(clients[0]);
    fw_close(clients[1]);
    close(ep);
    free(jpeg);
}

int main(int argc, char **argv)
{
    if (argc > 1 && !parse_test_arguments(argc, argv, &fixtures_dir, &worker_socket))
        return 2;
    RUN(test_epoll_serves_several_sessions_from_one_thread);
    RUN(test_poll_serves_several_sessions_from_one_thread);
    RUN(test_libuv_serves_several_sessions_from_one_thread);
    RUN(test_non_blocking_calls);
    RUN(test_blocking_calls_in_async_mode_are_refused);
    RUN(test_auto_reconnect_is_heard_as_in_blocking_mode);
    RUN(test_reader_error_is_told_and_the_client_connects_again);
    RUN(test_a_lost_connection_is_told_once);
    RUN(test_a_subscription_is_heard_through_the_front);
    RUN(test_the_epoll_loop_serves_others_while_a_client_reconnects);
    RUN(test_the_poll_loop_serves_others_while_a_client_reconnects);
    RUN(test_the_libuv_loop_serves_others_while_a_client_reconnects);
    RUN(test_sessions_opened_while_the_loop_runs);
    RUN(test_a_session_closed_while_it_is_opened_again);
    RUN(test_a_full_listen_queue_is_tried_again_on_the_timer);
    if (worker_socket)
        RUN(test_epoll_serves_a_real_workers_live_sessions);
    printf("%d passed, %d failed\n", tests_passed, tests_failed);
    return tests_failed ? 1 : 0;
}
