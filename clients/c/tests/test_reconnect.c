/*
 * Worker restarts under a client, against real workers: this program starts,
 * stops, pauses and kills face-worker itself, on one socket path, so that a
 * client outlives it. Auto-reconnect (on by default) first, blocking and
 * through the asynchronous front, then the explicit fw_reconnect() with it
 * off.
 *
 *     test_reconnect --worker PATH --models DIR --fixtures DIR
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/sockios.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "faceworker.h"
#include "faceworker/adapters/epoll.h"
#include "support.h"

static const char *worker_path, *models, *fixtures;
static char dir[] = "/tmp/fw-reconnect-XXXXXX";
static char socket_path[108], log_path[128], lean_models[128];
static pid_t worker = -1;
static uint8_t *jpeg;
static size_t jpeg_len;

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void pause_ms(int ms)
{
    nanosleep(&(struct timespec){.tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000}, NULL);
}

/* Starts a worker on socket_path with the models in models_dir and returns
 * once it answers a ping. */
static bool start_worker_with(const char *models_dir)
{
    worker = fork();
    if (worker == 0) {
        int log = open(log_path, O_WRONLY | O_CREAT | O_APPEND, 0644);
        dup2(log, 1);
        dup2(log, 2);
        execl(worker_path, worker_path, "--socket", socket_path, "--models", models_dir, (char *)NULL);
        _exit(127);
    }
    for (int64_t until = now_ms() + WORKER_TIMEOUT_MS; now_ms() < until;) {
        fw_client *c = fw_connect(socket_path, NULL);
        bool up = c && fw_ping(c, "", 0, NULL) == FW_OK;
        fw_close(c);
        if (up)
            return true;
        if (waitpid(worker, NULL, WNOHANG) == worker)
            break;
        pause_ms(50);
    }
    fprintf(stderr, "    face-worker did not start; see %s\n", log_path);
    return false;
}

static bool start_worker(void)
{
    return start_worker_with(models);
}

/* SIGTERM: the worker drains (answers what it read, ends subscriptions)
 * and exits. SIGKILL: it is gone at once. */
static void stop_worker(int sig)
{
    if (worker <= 0)
        return;
    kill(worker, sig);
    waitpid(worker, NULL, 0);
    worker = -1;
}

static bool restart_worker(int sig)
{
    stop_worker(sig);
    return start_worker();
}

/* Stops the worker where it is, so that what is sent to it stays unread. */
static void freeze_worker(void)
{
    kill(worker, SIGSTOP);
    waitpid(worker, NULL, WUNTRACED);
}

/* Waits until a request lies unread in the frozen worker's socket, that is,
 * until a blocking call of another thread is in flight: the bytes a Unix
 * socket has sent count in its output queue until the peer reads them. */
static bool wait_for_unread_request(void)
{
    for (int64_t until = now_ms() + WORKER_TIMEOUT_MS; now_ms() < until; pause_ms(1)) {
        for (int fd = 3; fd < 1024; fd++) {
            int queued;
            if (ioctl(fd, SIOCOUTQ, &queued) == 0 && queued > 0)
                return true;
        }
    }
    return false;
}

/* A client that reconnects by itself, waiting as long as a debug worker
 * takes to start. */
static fw_client *connect_auto(void)
{
    fw_client *c = connect_worker(socket_path);
    if (c) {
        fw_reconnect_options o;
        fw_reconnect_options_init(&o);
        o.deadline_ms = WORKER_TIMEOUT_MS;
        fw_set_auto_reconnect(c, true, &o);
    }
    return c;
}

/* A client that reconnects only when asked. */
static fw_client *connect_manual(void)
{
    fw_client *c = connect_worker(socket_path);
    if (c)
        fw_set_auto_reconnect(c, false, NULL);
    return c;
}

static fw_session *open_mode(fw_client *c, fw_running_mode mode, const char *name)
{
    fw_session_options o;
    fw_session_options_init(&o);
    o.running_mode = mode;
    fw_error err;
    fw_session *s = name ? fw_open_named_session(c, &o, name, &err) : fw_open_session(c, &o, &err);
    if (!s)
        fprintf(stderr, "    fw_open_session: %s\n", err.message);
    return s;
}

/* fw_process_jpeg() of the fixture, which must find its one face; *restarted
 * (when given) says whether the result is the session's first after a
 * reconnect. */
static int process_restarted(fw_session *s, int64_t timestamp_ms, bool *restarted, fw_error *err)
{
    fw_result *r;
    int rc = fw_process_jpeg(s, jpeg, jpeg_len, timestamp_ms, &r, err);
    if (rc == FW_OK) {
        rc = fw_result_face_count(r) == 1 ? FW_OK : FW_ERR_USAGE;
        if (restarted)
            *restarted = fw_result_session_restarted(r);
        fw_result_free(r);
    }
    return rc;
}

static int process(fw_session *s, int64_t timestamp_ms, fw_error *err)
{
    return process_restarted(s, timestamp_ms, NULL, err);
}

/* The worker holds a session of that name, and it is s: a client of its own
 * follows it by the name and hears s's next result. */
static void check_named_on_worker(fw_session *s, const char *name, int64_t timestamp_ms)
{
    fw_client *watcher = connect_manual();
    REQUIRE(watcher, "connected");
    fw_error err;
    fw_subscription *sub = fw_subscribe(watcher, name, &err);
    if (CHECK_AT(sub, "the worker knows the name \"%s\": %s", name, err.message)) {
        CHECK(fw_subscription_session_id(sub) == fw_session_id(s), "and it is the session's: %llu, %llu",
              (unsigned long long)fw_subscription_session_id(sub), (unsigned long long)fw_session_id(s));
        CHECK(process(s, timestamp_ms, &err) == FW_OK, "%s", err.message);
        fw_subscription_event ev;
        CHECK(fw_receive(sub, WORKER_TIMEOUT_MS, &ev, &err) == FW_OK && ev.type == FW_SUB_RESULT &&
                  ev.timestamp_ms == timestamp_ms,
              "its follower hears its result: %d %lld", ev.type, (long long)ev.timestamp_ms);
        fw_result_free(ev.result);
    }
    fw_close(watcher);
}

/* ------------------------------------------------------------------------
 * Auto-reconnect
 * ------------------------------------------------------------------------ */

static void test_an_image_session_goes_on_after_a_restart(void)
{
    fw_client *c = connect_auto();
    REQUIRE(c, "connected");
    fw_session *s = open_mode(c, FW_MODE_IMAGE, NULL);
    fw_error err;
    bool restarted = true;
    if (CHECK_AT(s, "opened") && CHECK_AT(process_restarted(s, 0, &restarted, &err) == FW_OK, "%s", err.message)) {
        CHECK(!restarted, "a first session is no restart");
        REQUIRE(restart_worker(SIGTERM), "restarted");
        CHECK(process_restarted(s, 0, &restarted, &err) == FW_OK, "the first call after works: %s", err.message);
        CHECK(restarted, "its result says tracking started anew");
        CHECK(process_restarted(s, 0, &restarted, &err) == FW_OK && !restarted, "only the first says so");
    }
    fw_close(c);
}

static void test_a_video_session_keeps_its_name_across_a_restart(void)
{
    fw_client *c = connect_auto();
    REQUIRE(c, "connected");
    fw_session *s = open_mode(c, FW_MODE_VIDEO, "c-door-camera");
    fw_error err;
    bool restarted = true;
    if (CHECK_AT(s, "opened") && CHECK_AT(process(s, 1, &err) == FW_OK, "%s", err.message)) {
        REQUIRE(restart_worker(SIGTERM), "restarted");
        CHECK(process_restarted(s, 2, &restarted, &err) == FW_OK && restarted, "the next frame, tracked anew: %s",
              err.message);
        check_named_on_worker(s, "c-door-camera", 3);
    }
    fw_close(c);
}

struct blocking_call {
    fw_session *session;
    int rc;
    fw_error err;
};

static void *call_in_flight(void *p)
{
    struct blocking_call *call = p;
    call->rc = process(call->session, 2, &call->err);
    return NULL;
}

static void check_a_call_in_flight_fails_once(fw_running_mode mode)
{
    fw_client *c = connect_auto();
    REQUIRE(c, "connected");
    fw_session *s = open_mode(c, mode, NULL);
    fw_error err;
    if (CHECK_AT(s, "opened") && CHECK_AT(process(s, 1, &err) == FW_OK, "%s", err.message)) {
        freeze_worker();
        struct blocking_call call = {.session = s};
        pthread_t thread;
        REQUIRE(pthread_create(&thread, NULL, call_in_flight, &call) == 0, "thread");
        bool sent = wait_for_unread_request();
        stop_worker(SIGKILL);
        pthread_join(thread, NULL);
        REQUIRE(sent, "the frame was sent");
        CHECK(call.rc == FW_UNAVAILABLE, "the cut call fails with UNAVAILABLE: %s %s", fw_status_name(call.rc),
              call.err.message);
        CHECK(contains(call.err.message, "went away") && contains(call.err.message, "next call connects again"),
              "and says why and what comes next: %s", call.err.message);
        REQUIRE(start_worker(), "started again");
        bool restarted = false;
        CHECK(process_restarted(s, 3, &restarted, &err) == FW_OK, "the next call works: %s", err.message);
        CHECK(restarted, "on a session tracked anew");
    }
    fw_close(c);
}

static void test_an_image_call_in_flight_fails_once(void)
{
    check_a_call_in_flight_fails_once(FW_MODE_IMAGE);
}

static void test_a_video_call_in_flight_fails_once(void)
{
    check_a_call_in_flight_fails_once(FW_MODE_VIDEO);
}

static void test_live_frames_in_flight_are_dropped_once(void)
{
    fw_client *c = connect_auto();
    REQUIRE(c, "connected");
    fw_session *s = open_mode(c, FW_MODE_LIVE_STREAM, NULL);
    fw_error err;
    fw_event ev;
    if (CHECK_AT(s, "opened")) {
        CHECK(fw_send_jpeg(s, jpeg, jpeg_len, 0, &err) == FW_OK, "%s", err.message);
        CHECK(fw_poll(s, -1, &ev, &err) == FW_OK && ev.type == FW_EVENT_RESULT, "%s", err.message);
        fw_result_free(ev.result);
        /* Frames on the wire that the worker will never answer. Three fit in
         * the socket's buffer, so sending them never waits for it. */
        freeze_worker();
        for (int64_t t = 1; t <= 3; t++)
            CHECK(fw_send_jpeg(s, jpeg, jpeg_len, t, &err) == FW_OK, "%s", err.message);
        REQUIRE(restart_worker(SIGKILL), "restarted");
        for (int64_t t = 1; t <= 3; t++) {
            CHECK(fw_poll(s, 0, &ev, &err) == FW_OK, "fw_poll reconnects by itself: %s", err.message);
            CHECK(ev.type == FW_EVENT_DROPPED && ev.drop_reason == FW_DROP_WORKER_RESTARTED && ev.timestamp_ms == t,
                  "frame %lld: event %d, reason %d, timestamp %lld", (long long)t, ev.type, ev.drop_reason,
                  (long long)ev.timestamp_ms);
        }
        CHECK(fw_poll(s, 0, &ev, &err) == FW_OK && ev.type == FW_EVENT_RESTARTED, "then the notice: %d", ev.type);
        CHECK(fw_session_pending(s) == 0, "every frame answered once: %zu pending", fw_session_pending(s));
        CHECK(fw_poll(s, 0, &ev, &err) == FW_OK && ev.type == FW_EVENT_NONE, "told once: %d", ev.type);
        CHECK(fw_send_jpeg(s, jpeg, jpeg_len, 6, &err) == FW_OK, "%s", err.message);
        CHECK(fw_poll(s, -1, &ev, &err) == FW_OK && ev.type == FW_EVENT_RESULT && ev.timestamp_ms == 6,
              "the next frame gets its result: %d", ev.type);
        CHECK(ev.result && fw_result_session_restarted(ev.result), "which says tracking started anew");
        fw_result_free(ev.result);
    }
    fw_close(c);
}

/* What the asynchronous front handed out, in order. */
struct async_heard {
    int results, notices;
    int64_t dropped[8];
    int drops;
    bool drops_by_restart, marked_first;
};

static void on_async_event(fw_session *s, fw_event *ev, void *data)
{
    struct async_heard *h = data;
    (void)s;
    if (ev->type == FW_EVENT_DROPPED) {
        if (h->drops < 8)
            h->dropped[h->drops] = ev->timestamp_ms;
        h->drops++;
        h->drops_by_restart &= ev->drop_reason == FW_DROP_WORKER_RESTARTED && h->notices == 0;
    } else if (ev->type == FW_EVENT_RESTARTED) {
        h->notices++;
    } else if (ev->type == FW_EVENT_RESULT) {
        h->results++;
        if (h->notices == 1 && ev->timestamp_ms == 6)
            h->marked_first = fw_result_session_restarted(ev->result);
    }
    fw_result_free(ev->result);
}

static void serve_until(int ep, const int *count, int want)
{
    while (*count < want) {
        struct epoll_event evs[4];
        int n = epoll_wait(ep, evs, 4, WORKER_TIMEOUT_MS);
        if (!CHECK_AT(n > 0, "nothing happened at %d of %d", *count, want))
            return;
        for (int i = 0; i < n; i++)
            fw_epoll_dispatch(&evs[i]);
    }
}

/* The same outage as above, served by an epoll loop: the handler hears the
 * same events in the same order, and the loop never calls a blocking
 * function. */
static void test_async_live_frames_in_flight_are_dropped_once(void)
{
    fw_client *c = connect_auto();
    REQUIRE(c, "connected");
    fw_session *s = open_mode(c, FW_MODE_LIVE_STREAM, NULL);
    struct async_heard h = {.drops_by_restart = true};
    fw_async_handlers handlers = FW_ASYNC_HANDLERS_INIT;
    handlers.on_event = on_async_event;
    handlers.data = &h;
    int ep = epoll_create1(EPOLL_CLOEXEC);
    fw_error err;
    if (CHECK_AT(s, "opened") && CHECK_AT(fw_async_start(c, &handlers, &err) == FW_OK, "%s", err.message) &&
        CHECK_AT(fw_epoll_attach(ep, c, &err) == FW_OK, "%s", err.message)) {
        CHECK(fw_send_jpeg(s, jpeg, jpeg_len, 0, &err) == FW_OK, "%s", err.message);
        serve_until(ep, &h.results, 1);
        freeze_worker();
        for (int64_t t = 1; t <= 3; t++)
            CHECK(fw_send_jpeg(s, jpeg, jpeg_len, t, &err) == FW_OK, "%s", err.message);
        REQUIRE(restart_worker(SIGKILL), "restarted");
        serve_until(ep, &h.notices, 1);
        CHECK(h.drops == 3 && h.dropped[0] == 1 && h.dropped[1] == 2 && h.dropped[2] == 3,
              "the three frames in flight dropped in sending order: %d drops", h.drops);
        CHECK(h.drops_by_restart, "each by the restart, before the notice");
        CHECK(fw_session_pending(s) == 0, "every frame answered once: %zu pending", fw_session_pending(s));
        CHECK(fw_send_jpeg(s, jpeg, jpeg_len, 6, &err) == FW_OK, "%s", err.message);
        serve_until(ep, &h.results, 2);
        CHECK(h.marked_first, "the next result says tracking started anew");
        CHECK(h.notices == 1, "told once: %d", h.notices);
    }
    fw_close(c);
    close(ep);
}

/* What an asynchronous follower heard of its subscription. */
struct async_follower {
    int restarts, results;
    int64_t last_ts;
};

/* One data pointer for both handlers: the session's tally first, which
 * on_async_event takes. */
struct async_both {
    struct async_heard session;
    struct async_follower follower;
};

static void on_async_sub_event(fw_subscription *sub, fw_subscription_event *ev, void *data)
{
    struct async_follower *f = &((struct async_both *)data)->follower;
    (void)sub;
    if (ev->type == FW_SUB_RESTARTED)
        f->restarts++;
    if (ev->type == FW_SUB_RESULT) {
        f->results++;
        f->last_ts = ev->timestamp_ms;
    }
    fw_result_free(ev->result);
}

/* An async client that follows a named session and sends frames from a
 * shared-memory buffer: after a restart, its reconnect subscribes again
 * (retrying while the producer has not re-opened its session yet) and
 * registers the buffer again, all on the loop. */
static void test_async_a_subscription_and_a_buffer_come_back(void)
{
    fw_client *producer = connect_auto();
    fw_client *c = connect_auto();
    REQUIRE(producer && c, "connected");
    fw_session *followed = open_mode(producer, FW_MODE_VIDEO, "c-async-followed");
    fw_session *s = open_mode(c, FW_MODE_LIVE_STREAM, NULL);
    fw_error err;
    fw_subscription *sub = followed ? fw_subscribe(c, "c-async-followed", &err) : NULL;
    fw_buffer *b = sub && s ? fw_register_buffer(c, jpeg_len, &err) : NULL;
    struct async_both both = {.session = {.drops_by_restart = true}};
    struct async_heard *h = &both.session;
    struct async_follower *f = &both.follower;
    fw_async_handlers handlers = FW_ASYNC_HANDLERS_INIT;
    handlers.on_event = on_async_event;
    handlers.on_subscription_event = on_async_sub_event;
    handlers.data = &both;
    int ep = epoll_create1(EPOLL_CLOEXEC);
    if (CHECK_AT(b, "subscribed, buffer registered: %s", err.message) &&
        CHECK_AT(fw_async_start(c, &handlers, &err) == FW_OK, "%s", err.message) &&
        CHECK_AT(fw_epoll_attach(ep, c, &err) == FW_OK, "%s", err.message)) {
        memcpy(fw_buffer_data(b), jpeg, jpeg_len);
        fw_frame frame = {.jpeg_region = {.buffer = b, .offset = 0, .length = jpeg_len}, .timestamp_ms = 1};
        CHECK(process(followed, 1, &err) == FW_OK, "%s", err.message);
        serve_until(ep, &f->results, 1);
        REQUIRE(restart_worker(SIGTERM), "restarted");
        /* The producer comes back on its next call; the follower's loop
         * finds its own connection gone and mends it meanwhile. */
        CHECK(process(followed, 2, &err) == FW_OK, "%s", err.message);
        serve_until(ep, &f->restarts, 1);
        CHECK(process(followed, 3, &err) == FW_OK, "%s", err.message);
        serve_until(ep, &f->results, 2);
        CHECK(f->restarts == 1 && f->last_ts == 3, "the subscription told of the restart once, then the new "
                                                   "worker's results: %d restarts, timestamp %lld",
              f->restarts, (long long)f->last_ts);
        CHECK(fw_subscription_session_id(sub) == fw_session_id(followed), "it follows the re-opened session");
        frame.timestamp_ms = 6;
        CHECK(fw_send(s, &frame, &err) == FW_OK, "a frame from the buffer: %s", err.message);
        serve_until(ep, &h->results, 1);
        CHECK(h->notices == 1 && h->marked_first, "the session heard the restart once, and its result says so");
    }
    fw_close(c);
    fw_close(producer);
    close(ep);
}

static void *restart_by_sigterm(void *p)
{
    *(bool *)p = restart_worker(SIGTERM);
    return NULL;
}

struct live_tally {
    int sent, results, drops, errors, notices, after, marked;
};

static void take(struct live_tally *t, fw_event *ev)
{
    switch (ev->type) {
    case FW_EVENT_RESULT:
        t->results++;
        t->after += t->notices > 0;
        t->marked += fw_result_session_restarted(ev->result);
        CHECK(fw_result_session_restarted(ev->result) == (t->after == 1),
              "only the first result after the restart says so (result %d after it)", t->after);
        fw_result_free(ev->result);
        break;
    case FW_EVENT_DROPPED:
        t->drops++;
        CHECK(ev->drop_reason == FW_DROP_REPLACED || ev->drop_reason == FW_DROP_WORKER_RESTARTED, "reason %d",
              ev->drop_reason);
        break;
    case FW_EVENT_RESTARTED:
        t->notices++;
        break;
    case FW_EVENT_ERROR:
        t->errors++;
        CHECK(false, "frame %lld: %s", (long long)ev->timestamp_ms, ev->error.message);
        break;
    case FW_EVENT_NONE:
        break;
    }
}

/* A camera loop sends a frame every 33 ms and takes what has come
 * meanwhile, while another thread restarts the worker under it (SIGTERM:
 * the worker drains, then a new one loads its models). */
static void test_a_live_loop_runs_on_across_a_restart(void)
{
    fw_client *c = connect_auto();
    REQUIRE(c, "connected");
    fw_session *s = open_mode(c, FW_MODE_LIVE_STREAM, NULL);
    REQUIRE(s, "opened");
    fw_error err;
    fw_event ev;
    pthread_t restarter;
    bool restarting = false, restarted = false;
    struct live_tally t = {0};
    int64_t until = now_ms() + 3 * WORKER_TIMEOUT_MS, due = now_ms();
    for (int64_t ts = 0; (!restarting || t.after < 3) && now_ms() < until; ts++) {
        if (fw_send_jpeg(s, jpeg, jpeg_len, ts, &err) == FW_OK) {
            t.sent++;
        } else {
            t.errors++;
            CHECK(false, "frame %lld not sent: %s", (long long)ts, err.message);
        }
        /* A send that waited for the new worker does not make the camera
         * catch up. */
        due = (due > now_ms() ? due : now_ms()) + 33;
        for (int64_t left; (left = due - now_ms()) > 0;) {
            if (fw_poll(s, (int)left, &ev, &err) != FW_OK) {
                t.errors++;
                CHECK(false, "fw_poll: %s", err.message);
                break;
            }
            take(&t, &ev);
        }
        if (!restarting && t.results >= 3) {
            restarting = pthread_create(&restarter, NULL, restart_by_sigterm, &restarted) == 0;
            REQUIRE(restarting, "restarter");
        }
    }
    while (fw_session_pending(s) > 0 && fw_poll(s, WORKER_TIMEOUT_MS, &ev, &err) == FW_OK && ev.type != FW_EVENT_NONE)
        take(&t, &ev);
    if (restarting)
        pthread_join(restarter, NULL);
    CHECK(restarted, "the worker restarted");
    CHECK(t.after >= 3, "results came after the restart: %d", t.after);
    CHECK(t.notices == 1 && t.marked == 1, "the outage was told once: %d notices, %d marked results", t.notices,
          t.marked);
    CHECK(t.errors == 0, "%d errors", t.errors);
    CHECK(t.sent == t.results + t.drops, "every frame answered once: %d sent, %d results, %d drops", t.sent,
          t.results, t.drops);
    fw_close(c);
}

static void test_a_subscriber_follows_the_session_across_a_restart(void)
{
    fw_client *producer = connect_auto();
    fw_client *follower = connect_auto();
    REQUIRE(producer && follower, "connected");
    fw_session *s = open_mode(producer, FW_MODE_VIDEO, "c-followed");
    fw_error err;
    fw_subscription *sub = s ? fw_subscribe(follower, "c-followed", &err) : NULL;
    fw_subscription_event ev;
    if (CHECK_AT(sub, "subscribed")) {
        REQUIRE(restart_worker(SIGTERM), "restarted");
        /* The producer's session is back once its next call is. */
        CHECK(process(s, 1, &err) == FW_OK, "%s", err.message);
        CHECK(fw_receive(sub, WORKER_TIMEOUT_MS, &ev, &err) == FW_OK && ev.type == FW_SUB_RESTARTED,
              "the worker's stop ends nothing; the subscriber is told it came back: %d %s", ev.type, err.message);
        CHECK(fw_subscription_session_id(sub) == fw_session_id(s), "it follows the re-opened session");
        CHECK(process(s, 2, &err) == FW_OK, "%s", err.message);
        CHECK(fw_receive(sub, WORKER_TIMEOUT_MS, &ev, &err) == FW_OK && ev.type == FW_SUB_RESULT &&
                  ev.timestamp_ms == 2,
              "then the new worker's results: %d %lld", ev.type, (long long)ev.timestamp_ms);
        fw_result_free(ev.result);
        CHECK(fw_receive(sub, 0, &ev, &err) == FW_OK && ev.type == FW_SUB_NONE, "nothing else: %d", ev.type);
    }
    fw_close(follower);
    fw_close(producer);
}

/* One subscription comes back on every attempt, the other never: the
 * attempts fail after re-subscribing the first, again and again, until the
 * deadline. Neither may hear of a restart that did not happen; once the
 * second is back, each hears of it once. */
static void test_failed_attempts_tell_a_subscriber_once(void)
{
    fw_client *first = connect_auto();
    fw_client *second = connect_auto();
    fw_client *follower = connect_auto();
    REQUIRE(first && second && follower, "connected");
    fw_reconnect_options o;
    fw_reconnect_options_init(&o);
    o.deadline_ms = 1500;
    fw_set_auto_reconnect(follower, true, &o);
    fw_session *s1 = open_mode(first, FW_MODE_VIDEO, "c-first");
    fw_session *s2 = open_mode(second, FW_MODE_VIDEO, "c-second");
    fw_error err;
    /* The newest subscription is subscribed again first. */
    fw_subscription *sub2 = s1 && s2 ? fw_subscribe(follower, "c-second", &err) : NULL;
    fw_subscription *sub1 = sub2 ? fw_subscribe(follower, "c-first", &err) : NULL;
    fw_subscription_event ev;
    if (CHECK_AT(sub1 && sub2, "subscribed")) {
        REQUIRE(restart_worker(SIGTERM), "restarted");
        CHECK(process(s1, 1, &err) == FW_OK, "%s", err.message);
        int rc = fw_receive(sub1, -1, &ev, &err);
        CHECK(rc == FW_UNAVAILABLE && contains(err.message, "within 1500 ms") &&
                  contains(err.message, "\"c-second\""),
              "the follower gives up at its deadline, saying why: %s %s", fw_status_name(rc), err.message);
        CHECK(fw_receive(sub1, 0, &ev, &err) == FW_UNAVAILABLE && fw_receive(sub2, 0, &ev, &err) == FW_UNAVAILABLE,
              "and no restart is told: %d", ev.type);
        CHECK(process(s2, 1, &err) == FW_OK, "%s", err.message);
        CHECK(fw_reconnect(follower, NULL, &err) == FW_OK, "%s", err.message);
        CHECK(fw_receive(sub1, 0, &ev, &err) == FW_OK && ev.type == FW_SUB_RESTARTED, "the first is told: %d",
              ev.type);
        CHECK(fw_receive(sub1, 0, &ev, &err) == FW_OK && ev.type == FW_SUB_NONE, "once: %d", ev.type);
        CHECK(fw_receive(sub2, 0, &ev, &err) == FW_OK && ev.type == FW_SUB_RESTARTED, "the second is told: %d",
              ev.type);
        CHECK(fw_receive(sub2, 0, &ev, &err) == FW_OK && ev.type == FW_SUB_NONE, "once: %d", ev.type);
    }
    fw_close(follower);
    fw_close(second);
    fw_close(first);
}

static void test_a_shared_buffer_is_registered_again(void)
{
    fw_client *c = connect_auto();
    REQUIRE(c, "connected");
    fw_session *s = open_mode(c, FW_MODE_IMAGE, NULL);
    fw_error err;
    fw_buffer *b = s ? fw_register_buffer(c, jpeg_len, &err) : NULL;
    if (CHECK_AT(b, "registered")) {
        memcpy(fw_buffer_data(b), jpeg, jpeg_len);
        fw_frame f = {.jpeg_region = {.buffer = b, .offset = 0, .length = jpeg_len}};
        fw_result *r;
        CHECK(fw_process(s, &f, &r, &err) == FW_OK, "%s", err.message);
        fw_result_free(r);
        REQUIRE(restart_worker(SIGTERM), "restarted");
        CHECK(fw_process(s, &f, &r, &err) == FW_OK && fw_result_face_count(r) == 1, "%s", err.message);
        fw_result_free(r);
    }
    fw_close(c);
}

/* The deadline is the feature here: the attempts stop at it, not at the
 * default 30 s. The bound leaves that much room for a loaded machine. */
static void test_the_reconnect_gives_up_at_its_deadline(void)
{
    fw_client *c = connect_worker(socket_path);
    REQUIRE(c, "connected");
    fw_reconnect_options o;
    fw_reconnect_options_init(&o);
    o.deadline_ms = 500;
    fw_set_auto_reconnect(c, true, &o);
    stop_worker(SIGTERM);
    fw_error err;
    int64_t began = now_ms();
    int rc = fw_ping(c, "", 0, &err);
    int64_t took = now_ms() - began;
    CHECK(rc == FW_UNAVAILABLE && contains(err.message, "within 500 ms"), "%s %s", fw_status_name(rc), err.message);
    CHECK(took >= 500 && took < 15000, "gave up at its own deadline, not the default one: %lld ms", (long long)took);
    /* With a worker back, a call that tried again would succeed. */
    REQUIRE(start_worker(), "started again");
    rc = fw_ping(c, "", 0, &err);
    CHECK(rc == FW_UNAVAILABLE && contains(err.message, "within 500 ms"),
          "later calls say why, without trying again: %s %s", fw_status_name(rc), err.message);
    CHECK(fw_reconnect(c, NULL, &err) == FW_OK, "fw_reconnect tries again: %s", err.message);
    CHECK(fw_ping(c, "", 0, &err) == FW_OK, "%s", err.message);
    fw_close(c);
}

/* A directory of links to every model but the Face Landmarker's bundle,
 * which a worker may lack. */
static bool make_lean_models(void)
{
    snprintf(lean_models, sizeof lean_models, "%s/models-without-bundle", dir);
    DIR *d = opendir(models);
    if (!d || mkdir(lean_models, 0755) != 0) {
        if (d)
            closedir(d);
        return false;
    }
    bool ok = true;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (e->d_name[0] == '.' || strcmp(e->d_name, "face_landmarker.task") == 0)
            continue;
        char from[PATH_MAX + 300], real[PATH_MAX], to[sizeof lean_models + 300];
        snprintf(from, sizeof from, "%s/%s", models, e->d_name);
        snprintf(to, sizeof to, "%s/%s", lean_models, e->d_name);
        ok = ok && realpath(from, real) && symlink(real, to) == 0;
    }
    closedir(d);
    return ok;
}

static void remove_lean_models(void)
{
    DIR *d = opendir(lean_models);
    if (!d)
        return;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        char path[sizeof lean_models + 300];
        snprintf(path, sizeof path, "%s/%s", lean_models, e->d_name);
        if (e->d_name[0] != '.')
            unlink(path);
    }
    closedir(d);
    rmdir(lean_models);
}

static void test_a_worker_that_refuses_the_old_options_ends_the_outage(void)
{
    REQUIRE(make_lean_models(), "links to the models in %s", lean_models);
    fw_client *c = connect_auto();
    REQUIRE(c, "connected");
    fw_session_options o;
    fw_session_options_init(&o);
    o.mesh_model = FW_MESH_FACE_LANDMARKER;
    fw_error err;
    fw_session *s = fw_open_session(c, &o, &err);
    if (CHECK_AT(s, "%s", err.message) && CHECK_AT(process(s, 0, &err) == FW_OK, "%s", err.message)) {
        stop_worker(SIGTERM);
        REQUIRE(start_worker_with(lean_models), "started without the bundle");
        /* Retried until the deadline, it would end in FW_UNAVAILABLE. */
        int rc = process(s, 0, &err);
        CHECK(rc == FW_FAILED_PRECONDITION && contains(err.message, "no Face Landmarker bundle"),
              "the worker's own refusal, not retried: %s %s", fw_status_name(rc), err.message);
        /* With the bundle back, a call that tried again would succeed. */
        REQUIRE(restart_worker(SIGTERM), "the bundle is back");
        rc = process(s, 0, &err);
        CHECK(rc == FW_FAILED_PRECONDITION && contains(err.message, "no Face Landmarker bundle"),
              "nor tried again by later calls: %s %s", fw_status_name(rc), err.message);
        CHECK(fw_reconnect(c, NULL, &err) == FW_OK, "%s", err.message);
        CHECK(process(s, 0, &err) == FW_OK, "%s", err.message);
    }
    fw_close(c);
    remove_lean_models();
}

static void test_turned_off_every_later_call_fails(void)
{
    fw_client *c = connect_manual();
    REQUIRE(c, "connected");
    fw_session *s = open_mode(c, FW_MODE_IMAGE, NULL);
    fw_session *live = open_mode(c, FW_MODE_LIVE_STREAM, NULL);
    fw_error err;
    if (CHECK_AT(s && live, "opened")) {
        REQUIRE(restart_worker(SIGTERM), "restarted");
        int first = process(s, 0, &err);
        CHECK(first == FW_ERR_CLOSED || first == FW_ERR_IO, "%s %s", fw_status_name(first), err.message);
        CHECK(process(s, 0, &err) == first, "the same error again: %s", err.message);
        CHECK(fw_send_jpeg(live, jpeg, jpeg_len, 0, &err) == first, "on every session: %s", err.message);
        fw_event ev;
        CHECK(fw_poll(live, 0, &ev, &err) == first, "fw_poll too: %s", err.message);
        fw_client *observer = connect_manual();
        fw_stats stats = {0};
        CHECK(observer && fw_get_stats(observer, &stats, &err) == FW_OK && stats.sessions == 0,
              "the client did not open its sessions again: %u sessions", stats.sessions);
        fw_close(observer);
    }
    fw_close(c);
}

/* ------------------------------------------------------------------------
 * fw_reconnect(), with auto-reconnect off
 * ------------------------------------------------------------------------ */

static void test_fw_reconnect_keeps_a_video_session_and_its_name(void)
{
    fw_client *c = connect_manual();
    REQUIRE(c, "connected");
    fw_session *s = open_mode(c, FW_MODE_VIDEO, "c-porch-camera");
    fw_error err;
    bool restarted = true;
    if (CHECK_AT(s, "opened") && CHECK_AT(process_restarted(s, 1, &restarted, &err) == FW_OK, "%s", err.message)) {
        CHECK(!restarted, "a first session is no restart");
        REQUIRE(restart_worker(SIGTERM), "restarted");
        int rc = process(s, 2, &err);
        CHECK(rc == FW_ERR_CLOSED || rc == FW_ERR_IO, "the call fails: %s %s", fw_status_name(rc), err.message);
        CHECK(fw_reconnect(c, NULL, &err) == FW_OK, "%s", err.message);
        CHECK(process_restarted(s, 3, &restarted, &err) == FW_OK, "the next call works: %s", err.message);
        CHECK(restarted, "its result says tracking started anew");
        CHECK(process_restarted(s, 4, &restarted, &err) == FW_OK && !restarted, "only the first says so");
        check_named_on_worker(s, "c-porch-camera", 5);
    }
    fw_close(c);
}

static void test_fw_reconnect_drops_live_frames_in_flight_once(void)
{
    fw_client *c = connect_manual();
    REQUIRE(c, "connected");
    fw_session *s = open_mode(c, FW_MODE_LIVE_STREAM, NULL);
    fw_error err;
    fw_event ev;
    if (CHECK_AT(s, "opened")) {
        freeze_worker();
        for (int64_t t = 1; t <= 3; t++)
            CHECK(fw_send_jpeg(s, jpeg, jpeg_len, t, &err) == FW_OK, "%s", err.message);
        REQUIRE(restart_worker(SIGKILL), "restarted");
        CHECK(fw_reconnect(c, NULL, &err) == FW_OK, "%s", err.message);
        for (int64_t t = 1; t <= 3; t++)
            CHECK(fw_poll(s, 0, &ev, &err) == FW_OK && ev.type == FW_EVENT_DROPPED &&
                      ev.drop_reason == FW_DROP_WORKER_RESTARTED && ev.timestamp_ms == t,
                  "frame %lld: event %d, reason %d", (long long)t, ev.type, ev.drop_reason);
        CHECK(fw_poll(s, 0, &ev, &err) == FW_OK && ev.type == FW_EVENT_RESTARTED, "then the notice: %d", ev.type);
        CHECK(fw_session_pending(s) == 0, "every frame answered once: %zu pending", fw_session_pending(s));
        CHECK(fw_send_jpeg(s, jpeg, jpeg_len, 6, &err) == FW_OK, "%s", err.message);
        CHECK(fw_poll(s, -1, &ev, &err) == FW_OK && ev.type == FW_EVENT_RESULT && ev.result &&
                  fw_result_session_restarted(ev.result),
              "the next frame's result says tracking started anew: %d", ev.type);
        fw_result_free(ev.result);
    }
    fw_close(c);
}

static void test_fw_reconnect_follows_a_subscription_again(void)
{
    fw_client *producer = connect_manual();
    fw_client *follower = connect_manual();
    REQUIRE(producer && follower, "connected");
    fw_session *s = open_mode(producer, FW_MODE_VIDEO, "c-gate-camera");
    fw_error err;
    fw_subscription *sub = s ? fw_subscribe(follower, "c-gate-camera", &err) : NULL;
    fw_subscription_event ev;
    if (CHECK_AT(sub, "subscribed")) {
        REQUIRE(restart_worker(SIGTERM), "restarted");
        CHECK(fw_receive(sub, -1, &ev, &err) == FW_OK && ev.type == FW_SUB_ENDED &&
                  ev.end_reason == FW_END_WORKER_STOPPING,
              "the worker says it stops before it goes: %d %d", ev.type, ev.end_reason);
        CHECK(fw_reconnect(producer, NULL, &err) == FW_OK, "%s", err.message);
        CHECK(fw_reconnect(follower, NULL, &err) == FW_OK, "%s", err.message);
        CHECK(fw_receive(sub, 0, &ev, &err) == FW_OK && ev.type == FW_SUB_RESTARTED, "told once: %d", ev.type);
        CHECK(process(s, 1, &err) == FW_OK, "%s", err.message);
        CHECK(fw_receive(sub, WORKER_TIMEOUT_MS, &ev, &err) == FW_OK && ev.type == FW_SUB_RESULT &&
                  ev.timestamp_ms == 1,
              "the new worker's result: %d", ev.type);
        fw_result_free(ev.result);
    }
    fw_close(follower);
    fw_close(producer);
}

int main(int argc, char **argv)
{
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--worker") == 0)
            worker_path = argv[i + 1];
        else if (strcmp(argv[i], "--models") == 0)
            models = argv[i + 1];
        else if (strcmp(argv[i], "--fixtures") == 0)
            fixtures = argv[i + 1];
    }
    if (!worker_path || !models || !fixtures) {
        fprintf(stderr, "usage: %s --worker PATH --models DIR --fixtures DIR\n", argv[0]);
        return 2;
    }
    if (!mkdtemp(dir))
        return 2;
    snprintf(socket_path, sizeof socket_path, "%s/faceworker.sock", dir);
    snprintf(log_path, sizeof log_path, "%s/face-worker.log", dir);
    jpeg = read_fixture(fixtures, "astronaut.jpg", &jpeg_len);
    if (!jpeg || !start_worker())
        return 1;
    RUN(test_an_image_session_goes_on_after_a_restart);
    RUN(test_a_video_session_keeps_its_name_across_a_restart);
    RUN(test_an_image_call_in_flight_fails_once);
    RUN(test_a_video_call_in_flight_fails_once);
    RUN(test_live_frames_in_flight_are_dropped_once);
    RUN(test_a_live_loop_runs_on_across_a_restart);
    RUN(test_async_live_frames_in_flight_are_dropped_once);
    RUN(test_async_a_subscription_and_a_buffer_come_back);
    RUN(test_a_subscriber_follows_the_session_across_a_restart);
    RUN(test_failed_attempts_tell_a_subscriber_once);
    RUN(test_a_shared_buffer_is_registered_again);
    RUN(test_the_reconnect_gives_up_at_its_deadline);
    RUN(test_a_worker_that_refuses_the_old_options_ends_the_outage);
    RUN(test_turned_off_every_later_call_fails);
    RUN(test_fw_reconnect_keeps_a_video_session_and_its_name);
    RUN(test_fw_reconnect_drops_live_frames_in_flight_once);
    RUN(test_fw_reconnect_follows_a_subscription_again);
    stop_worker(SIGTERM);
    free(jpeg);
    if (tests_failed == 0)
        unlink(log_path);
    rmdir(dir);
    printf("%d passed, %d failed\n", tests_passed, tests_failed);
    return tests_failed ? 1 : 0;
}
