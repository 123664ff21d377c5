/*
 * Tests of libfaceworker's wire handling, against a scripted fake worker in
 * this process: framing, routing, errors, timeouts, byte for byte. No
 * worker is needed; test_results covers what answers are handed out as.
 *
 *   test_wire
 *
 * The last line printed is "N passed, N failed".
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "fake_worker.h"
#include "faceworker.h"
#include "support.h"

typedef Faceworker__V1__ClientMessage ClientMessage;
typedef Faceworker__V1__WorkerMessage WorkerMessage;

/* ------------------------------------------------------------------------
 * Local behaviour
 * ------------------------------------------------------------------------ */

static void test_status_names(void)
{
    static const struct {
        int code;
        const char *name;
    } names[] = {
        {FW_OK, "OK"},
        {FW_INVALID_ARGUMENT, "INVALID_ARGUMENT"},
        {FW_UNAUTHENTICATED, "UNAUTHENTICATED"},
        {FW_ERR_USAGE, "ERR_USAGE"},
        {FW_ERR_CONNECT, "ERR_CONNECT"},
        {FW_ERR_DROPPED, "ERR_DROPPED"},
        {FW_ERR_SYSTEM, "ERR_SYSTEM"},
        {17, "?"},
        {-9, "?"},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        CHECK(strcmp(fw_status_name(names[i].code), names[i].name) == 0, "code %d is %s, not %s", names[i].code,
              names[i].name, fw_status_name(names[i].code));
}

static void test_connect_failure(void)
{
    char dir[] = "/tmp/fw-test-XXXXXX";
    REQUIRE(mkdtemp(dir) != NULL, "mkdtemp: %s", strerror(errno));
    char path[96];
    snprintf(path, sizeof path, "%s/absent.sock", dir);

    fw_error err;
    fw_client *c = fw_connect(path, &err);
    CHECK(c == NULL, "no worker, no client");
    CHECK(err.code == FW_ERR_CONNECT, "code %s", fw_status_name(err.code));
    CHECK(err.sys_errno == ENOENT, "errno %d", err.sys_errno);
    CHECK(contains(err.message, path), "the message names the path: %s", err.message);
    CHECK(contains(err.message, "is face-worker running?"), "and says what to check: %s", err.message);

    /* A socket file nobody listens on: a worker that died. */
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    snprintf(addr.sun_path, sizeof addr.sun_path, "%s", path);
    REQUIRE(bind(fd, (struct sockaddr *)&addr, sizeof addr) == 0, "bind: %s", strerror(errno));
    close(fd);
    c = fw_connect(path, &err);
    CHECK(c == NULL && err.code == FW_ERR_CONNECT, "stale socket: %s", fw_status_name(err.code));
    CHECK(err.sys_errno == ECONNREFUSED, "errno %d", err.sys_errno);
    unlink(path);
    rmdir(dir);

    char long_path[200];
    memset(long_path, 'a', sizeof long_path - 1);
    long_path[sizeof long_path - 1] = '\0';
    c = fw_connect(long_path, &err);
    CHECK(c == NULL && err.code == FW_ERR_USAGE, "a path longer than sun_path: %s", fw_status_name(err.code));

    CHECK(fw_connect(path, NULL) == NULL, "err may be NULL");
}

/* ------------------------------------------------------------------------
 * Wire tests against the fake worker
 * ------------------------------------------------------------------------ */

struct ping_record {
    bool slowly;
    int pings;
    bool ids_distinct_nonzero;
    size_t first_payload_len;
};

static void script_echo(int fd, void *arg)
{
    struct ping_record *r = arg;
    uint64_t last_id = 0;
    r->ids_distinct_nonzero = true;
    ClientMessage *m;
    while ((m = fake_read(fd)) != NULL) {
        if (m->kind_case == FACEWORKER__V1__CLIENT_MESSAGE__KIND_PING) {
            if (r->pings++ == 0)
                r->first_payload_len = m->ping->payload.len;
            if (m->call_id == 0 || m->call_id == last_id)
                r->ids_distinct_nonzero = false;
            last_id = m->call_id;
            fake_answer_ping(fd, m, m->call_id, r->slowly);
        }
        faceworker__v1__client_message__free_unpacked(m, NULL);
    }
}

static void test_wire_ping_partial_reads(void)
{
    struct ping_record rec = {.slowly = true};
    fake_worker *w;
    fw_client *c = fake_connect(script_echo, &rec, &w);
    REQUIRE(c, "fake worker");
    fw_error err;
    CHECK(fw_ping(c, "hello", 5, &err) == FW_OK, "%s", err.message);
    CHECK(err.code == FW_OK && err.message[0] == '\0', "success clears err");
    CHECK(fw_ping(c, NULL, 0, &err) == FW_OK, "empty ping: %s", err.message);
    fake_disconnect(c, w);
    CHECK(rec.pings == 2, "the worker saw %d pings", rec.pings);
    CHECK(rec.first_payload_len == 5, "payload of %zu bytes", rec.first_payload_len);
    CHECK(rec.ids_distinct_nonzero, "call ids are non-zero and distinct");
}

static void test_wire_large_messages(void)
{
    /* Larger than a Unix socket's buffer both ways: the client's writes
     * must resume after partial sends, and its read buffer must grow. */
    size_t len = 3 * 1024 * 1024;
    uint8_t *payload = malloc(len);
    REQUIRE(payload, "malloc");
    for (size_t i = 0; i < len; i++)
        payload[i] = (uint8_t)(i * 7 + i / 251);
    struct ping_record rec = {0};
    fake_worker *w;
    fw_client *c = fake_connect(script_echo, &rec, &w);
    if (CHECK_AT(c != NULL, "fake worker")) {
        fw_error err;
        CHECK(fw_ping(c, payload, len, &err) == FW_OK, "%s", err.message);
        CHECK(fw_ping(c, payload, 10, &err) == FW_OK, "a small one after: %s", err.message);
        fake_disconnect(c, w);
        CHECK(rec.first_payload_len == len, "the worker got %zu bytes", rec.first_payload_len);
    }
    free(payload);
}

static void answer_frame(int fd, const ClientMessage *m, bool dropped)
{
    WorkerMessage w = FACEWORKER__V1__WORKER_MESSAGE__INIT;
    w.call_id = m->call_id;
    Faceworker__V1__FrameResult result = FACEWORKER__V1__FRAME_RESULT__INIT;
    Faceworker__V1__FrameDropped drop = FACEWORKER__V1__FRAME_DROPPED__INIT;
    if (dropped) {
        drop.session_id = m->process_frame->session_id;
        drop.timestamp_ms = m->process_frame->frame->timestamp_ms;
        drop.reason = FACEWORKER__V1__FRAME_DROPPED__REASON__REASON_REPLACED;
        w.kind_case = FACEWORKER__V1__WORKER_MESSAGE__KIND_FRAME_DROPPED;
        w.frame_dropped = &drop;
    } else {
        result.session_id = m->process_frame->session_id;
        result.timestamp_ms = m->process_frame->frame->timestamp_ms;
        w.kind_case = FACEWORKER__V1__WORKER_MESSAGE__KIND_FRAME_RESULT;
        w.frame_result = &result;
    }
    fake_write(fd, &w);
}

static void answer_close(int fd, const ClientMessage *m)
{
    Faceworker__V1__CloseSessionResponse closed = FACEWORKER__V1__CLOSE_SESSION_RESPONSE__INIT;
    closed.session_id = m->close_session->session_id;
    WorkerMessage w = FACEWORKER__V1__WORKER_MESSAGE__INIT;
    w.call_id = m->call_id;
    w.kind_case = FACEWORKER__V1__WORKER_MESSAGE__KIND_CLOSE_SESSION;
    w.close_session = &closed;
    fake_write(fd, &w);
}

struct order_record {
    bool requests_ok;
};

/* Two sessions; three frames answered last first, the oldest dropped. */
static void script_out_of_order(int fd, void *arg)
{
    struct order_record *r = arg;
    ClientMessage *open[2] = {NULL, NULL};
    for (int i = 0; i < 2; i++) {
        open[i] = fake_read(fd);
        if (!open[i])
            goto out;
        fake_answer_open(fd, open[i], 7 + (uint64_t)i, open[i]->open_session->options);
    }
    ClientMessage *frames[3] = {fake_read(fd), fake_read(fd), fake_read(fd)};
    if (frames[0] && frames[1] && frames[2]) {
        r->requests_ok = frames[0]->process_frame->session_id == 7 &&
                         frames[1]->process_frame->session_id == 8 &&
                         frames[2]->process_frame->session_id == 7 &&
                         frames[0]->process_frame->frame->image_case == FACEWORKER__V1__FRAME__IMAGE_JPEG &&
                         frames[0]->process_frame->frame->jpeg.len == 3 &&
                         memcmp(frames[0]->process_frame->frame->jpeg.data, "abc", 3) == 0;
        answer_frame(fd, frames[2], false);
        answer_frame(fd, frames[1], false);
        answer_frame(fd, frames[0], true);
    }
    for (int i = 0; i < 3; i++)
        if (frames[i])
            faceworker__v1__client_message__free_unpacked(frames[i], NULL);
    fake_wait_for_hangup(fd);
out:
    for (int i = 0; i < 2; i++)
        if (open[i])
            faceworker__v1__client_message__free_unpacked(open[i], NULL);
}

static void test_wire_answers_in_any_order(void)
{
    struct order_record rec = {0};
    fake_worker *w;
    fw_client *c = fake_connect(script_out_of_order, &rec, &w);
    REQUIRE(c, "fake worker");
    fw_error err;
    fw_session *a = open_session_in(c, FW_MODE_LIVE_STREAM, false);
    fw_session *b = open_session_in(c, FW_MODE_LIVE_STREAM, false);
    if (CHECK_AT(a && b, "sessions")) {
        CHECK(fw_session_id(a) == 7 && fw_session_id(b) == 8, "ids from the worker");
        const uint8_t abc[] = "abc";
        CHECK(fw_send_jpeg(a, abc, 3, 10, &err) == FW_OK, "%s", err.message);
        CHECK(fw_send_jpeg(b, abc, 3, 20, &err) == FW_OK, "%s", err.message);
        CHECK(fw_send_jpeg(a, abc, 3, 30, &err) == FW_OK, "%s", err.message);
        CHECK(fw_session_pending(a) == 2 && fw_session_pending(b) == 1, "pending counts");

        fw_event ev;
        CHECK(fw_poll(a, -1, &ev, &err) == FW_OK, "%s", err.message);
        CHECK(ev.type == FW_EVENT_RESULT && ev.timestamp_ms == 30, "a's first answer: type %d ts %lld", ev.type,
              (long long)ev.timestamp_ms);
        if (ev.result)
            CHECK(fw_result_timestamp(ev.result) == 30, "the result echoes its timestamp");
        fw_result_free(ev.result);

        CHECK(fw_poll(a, -1, &ev, &err) == FW_OK, "%s", err.message);
        CHECK(ev.type == FW_EVENT_DROPPED && ev.timestamp_ms == 10, "a's second: type %d ts %lld", ev.type,
              (long long)ev.timestamp_ms);
        CHECK(ev.drop_reason == FW_DROP_REPLACED && ev.result == NULL, "dropped as replaced");
        CHECK(fw_session_pending(a) == 0, "a drained");

        /* b's answer arrived while a was polled: it waits, queued. */
        CHECK(fw_poll(b, 0, &ev, &err) == FW_OK, "%s", err.message);
        CHECK(ev.type == FW_EVENT_RESULT && ev.timestamp_ms == 20, "b's answer: type %d", ev.type);
        fw_result_free(ev.result);
        CHECK(fw_session_pending(b) == 0, "b drained");

        CHECK(fw_poll(b, 0, &ev, &err) == FW_OK && ev.type == FW_EVENT_NONE, "nothing more: type %d", ev.type);
        CHECK(fw_poll(b, 30, &ev, &err) == FW_OK && ev.type == FW_EVENT_NONE, "nothing within 30 ms");
    }
    fake_disconnect(c, w);
    CHECK(rec.requests_ok, "the worker saw each frame with its session and bytes");
}

/* Bytes the fake writes after reading the client's first message. */
struct bytes_script {
    const uint8_t *bytes;
    size_t len;
    bool hang_up; /* close at once instead of waiting for the client */
};

static void script_bytes(int fd, void *arg)
{
    struct bytes_script *b = arg;
    ClientMessage *m = fake_read(fd);
    if (!m)
        return;
    faceworker__v1__client_message__free_unpacked(m, NULL);
    fake_write_bytes(fd, b->bytes, b->len);
    if (!b->hang_up)
        fake_wait_for_hangup(fd);
}

/* Pings a fake worker that answers with `bytes`; returns the error. */
static fw_error ping_against(const uint8_t *bytes, size_t len, bool hang_up, fw_error *second)
{
    struct bytes_script b = {bytes, len, hang_up};
    fw_error err = {.code = 1000};
    fake_worker *w;
    fw_client *c = fake_connect(script_bytes, &b, &w);
    if (!c)
        return err;
    fw_set_timeout(c, 10000);
    fw_ping(c, "x", 1, &err);
    fw_ping(c, "y", 1, second);
    fake_disconnect(c, w);
    return err;
}

static void test_wire_oversized_message(void)
{
    const uint8_t header[] = {0, 0xff, 0xff, 0xff, 0xff};
    fw_error again;
    fw_error err = ping_against(header, sizeof header, false, &again);
    CHECK(err.code == FW_ERR_PROTOCOL, "code %s", fw_status_name(err.code));
    CHECK(contains(err.message, "4294967295"), "the message gives the length: %s", err.message);
    CHECK(again.code == FW_ERR_PROTOCOL && strcmp(again.message, err.message) == 0,
          "the connection stays failed with the same error");
}

static void test_wire_bad_flag(void)
{
    const uint8_t header[] = {1, 0, 0, 0, 0};
    fw_error again;
    fw_error err = ping_against(header, sizeof header, false, &again);
    CHECK(err.code == FW_ERR_PROTOCOL, "code %s", fw_status_name(err.code));
    CHECK(contains(err.message, "flag byte 0x01"), "%s", err.message);
}

static void test_wire_garbage_payload(void)
{
    const uint8_t bytes[] = {0, 0, 0, 0, 3, 0xff, 0xff, 0xff};
    fw_error again;
    fw_error err = ping_against(bytes, sizeof bytes, false, &again);
    CHECK(err.code == FW_ERR_PROTOCOL, "code %s", fw_status_name(err.code));
}

static void test_wire_truncated_message(void)
{
    uint8_t bytes[5 + 10] = {0, 0, 0, 0, 100};
    fw_error again;
    fw_error err = ping_against(bytes, sizeof bytes, true, &again);
    CHECK(err.code == FW_ERR_CLOSED, "code %s: %s", fw_status_name(err.code), err.message);
    CHECK(contains(err.message, "inside a message (15 of 105 bytes received)"), "says where it was cut: %s",
          err.message);
    CHECK(again.code == FW_ERR_CLOSED, "still closed");
}

static void script_farewell(int fd, void *arg)
{
    (void)arg;
    ClientMessage *m = fake_read(fd);
    if (!m)
        return;
    faceworker__v1__client_message__free_unpacked(m, NULL);
    fake_write_status(fd, 0, FACEWORKER__V1__STATUS__CODE__RESOURCE_EXHAUSTED,
                      "message of 99999999 bytes exceeds the limit of 16777216");
}

static void test_wire_worker_hangs_up_with_status(void)
{
    fake_worker *w;
    fw_client *c = fake_connect(script_farewell, NULL, &w);
    REQUIRE(c, "fake worker");
    fw_error err;
    int rc = fw_ping(c, NULL, 0, &err);
    CHECK(rc == FW_ERR_CLOSED, "code %s", fw_status_name(rc));
    CHECK(contains(err.message, "RESOURCE_EXHAUSTED") && contains(err.message, "exceeds the limit"),
          "the worker's last word is kept: %s", err.message);
    fake_disconnect(c, w);
}

static void script_wrong_call_id(int fd, void *arg)
{
    (void)arg;
    ClientMessage *m = fake_read(fd);
    if (!m)
        return;
    fake_answer_ping(fd, m, m->call_id + 1000, false);
    faceworker__v1__client_message__free_unpacked(m, NULL);
    fake_wait_for_hangup(fd);
}

static void test_wire_unknown_call_id(void)
{
    fake_worker *w;
    fw_client *c = fake_connect(script_wrong_call_id, NULL, &w);
    REQUIRE(c, "fake worker");
    fw_error err;
    int rc = fw_ping(c, NULL, 0, &err);
    CHECK(rc == FW_ERR_PROTOCOL, "code %s", fw_status_name(rc));
    CHECK(contains(err.message, "not waiting for"), "%s", err.message);
    fake_disconnect(c, w);
}

/* Answers four pings: with a bare INTERNAL, with a code from the future,
 * with the worker's RESOURCE_EXHAUSTED, and with stats instead of a ping. */
static void script_statuses(int fd, void *arg)
{
    (void)arg;
    ClientMessage *m;
    for (int i = 0; (m = fake_read(fd)) != NULL; i++) {
        if (i == 0)
            fake_write_status(fd, m->call_id, FACEWORKER__V1__STATUS__CODE__INTERNAL, "");
        else if (i == 1)
            fake_write_status(fd, m->call_id, (Faceworker__V1__Status__Code)42, "a code from the future");
        else if (i == 2)
            fake_write_status(fd, m->call_id, FACEWORKER__V1__STATUS__CODE__RESOURCE_EXHAUSTED,
                              "the connection already has 8 sessions, the most allowed");
        else if (i == 3) {
            Faceworker__V1__GetStatsResponse stats = FACEWORKER__V1__GET_STATS_RESPONSE__INIT;
            WorkerMessage w = FACEWORKER__V1__WORKER_MESSAGE__INIT;
            w.call_id = m->call_id;
            w.kind_case = FACEWORKER__V1__WORKER_MESSAGE__KIND_GET_STATS;
            w.get_stats = &stats;
            fake_write(fd, &w);
        }
        faceworker__v1__client_message__free_unpacked(m, NULL);
    }
}

static void test_wire_every_failure_is_told_in_words(void)
{
    fake_worker *w;
    fw_client *c = fake_connect(script_statuses, NULL, &w);
    REQUIRE(c, "fake worker");
    fw_set_timeout(c, 10000);
    fw_error err;
    int rc = fw_ping(c, NULL, 0, &err);
    CHECK(rc == FW_INTERNAL, "code %s", fw_status_name(rc));
    CHECK(contains(err.message, "INTERNAL") && contains(err.message, "without a message"),
          "a status without a message still says what came: %s", err.message);
    rc = fw_ping(c, NULL, 0, &err);
    CHECK(rc == FW_UNKNOWN, "a code this client does not know is UNKNOWN: %s", fw_status_name(rc));
    CHECK(contains(err.message, "42") && contains(err.message, "a code from the future"),
          "with the number and the worker's words: %s", err.message);
    rc = fw_ping(c, NULL, 0, &err);
    CHECK(rc == FW_RESOURCE_EXHAUSTED, "code %s", fw_status_name(rc));
    CHECK(strcmp(err.message, "the connection already has 8 sessions, the most allowed") == 0,
          "the worker's own words: %s", err.message);
    rc = fw_ping(c, NULL, 0, &err);
    CHECK(rc == FW_ERR_PROTOCOL, "an answer of the wrong kind: %s", fw_status_name(rc));
    CHECK(contains(err.message, "get_stats") && contains(err.message, "ping"),
          "names what came and what was due: %s", err.message);
    fake_disconnect(c, w);
}

/* Holds the first ping's answer until the second ping arrives. */
static void script_late(int fd, void *arg)
{
    (void)arg;
    ClientMessage *first = fake_read(fd);
    if (!first)
        return;
    ClientMessage *second = fake_read(fd);
    if (second) {
        fake_answer_ping(fd, first, first->call_id, false);
        fake_answer_ping(fd, second, second->call_id, false);
        faceworker__v1__client_message__free_unpacked(second, NULL);
        fake_wait_for_hangup(fd);
    }
    faceworker__v1__client_message__free_unpacked(first, NULL);
}

static void test_wire_timeout_discards_late_answer(void)
{
    fake_worker *w;
    fw_client *c = fake_connect(script_late, NULL, &w);
    REQUIRE(c, "fake worker");
    fw_error err;
    fw_set_timeout(c, 200);
    int rc = fw_ping(c, "first", 5, &err);
    CHECK(rc == FW_DEADLINE_EXCEEDED, "code %s", fw_status_name(rc));
    CHECK(contains(err.message, "200 ms"), "%s", err.message);
    fw_set_timeout(c, 10000);
    rc = fw_ping(c, "second", 6, &err);
    CHECK(rc == FW_OK, "the late answer is skipped, the next call works: %s", err.message);
    fake_disconnect(c, w);
}

static void test_wire_busy_poll(void)
{
    struct ping_record rec = {.slowly = true};
    fake_worker *w;
    fw_client *c = fake_connect(script_echo, &rec, &w);
    REQUIRE(c, "fake worker");
    fw_error err;
    fw_set_busy_poll(c, 200);
    CHECK(fw_ping(c, "spin", 4, &err) == FW_OK, "an answer in pieces, some after the window: %s", err.message);
    fw_set_busy_poll(c, FW_BUSY_POLL_MAX_US + 1);
    CHECK(fw_ping(c, NULL, 0, &err) == FW_OK, "a clamped window: %s", err.message);
    fw_set_busy_poll(c, -5);
    CHECK(fw_ping(c, "sleep", 5, &err) == FW_OK, "a negative window spins not at all: %s", err.message);
    fake_disconnect(c, w);
    CHECK(rec.pings == 3, "the worker saw %d pings", rec.pings);
}

/* Answers the first ping only once the client's deadline has passed:
 * `delay_ms` after reading it, longer than the client's timeout, but
 * within its busy-poll window. Every later ping is answered at once. */
static void script_late_within_the_window(int fd, void *arg)
{
    const int *delay_ms = arg;
    ClientMessage *m;
    for (int pings = 0; (m = fake_read(fd)) != NULL; pings++) {
        if (pings == 0)
            nanosleep(&(struct timespec){.tv_nsec = (long)*delay_ms * 1000000L}, NULL);
        fake_answer_ping(fd, m, m->call_id, false);
        faceworker__v1__client_message__free_unpacked(m, NULL);
    }
}

/* A deadline inside the busy-poll window ends the spinning: an answer that
 * comes after the deadline, while the window would still be spinning, is
 * late, and the call fails. (On a loaded machine the answer may come after
 * the window too; the call fails all the same.) */
static void test_wire_busy_poll_keeps_timeout(void)
{
    int delay_ms = 4;
    fake_worker *w;
    fw_client *c = fake_connect(script_late_within_the_window, &delay_ms, &w);
    REQUIRE(c, "fake worker");
    fw_error err;
    fw_set_busy_poll(c, FW_BUSY_POLL_MAX_US);
    fw_set_timeout(c, 2);
    int rc = fw_ping(c, "first", 5, &err);
    CHECK(rc == FW_DEADLINE_EXCEEDED && contains(err.message, "within 2 ms"), "the answer came too late: %s %s",
          fw_status_name(rc), err.message);
    fw_set_timeout(c, -1);
    rc = fw_ping(c, "second", 6, &err);
    CHECK(rc == FW_OK, "the late answer is skipped, the next call works: %s", err.message);
    fake_disconnect(c, w);
}

/* Answers every frame and every close; the client leaves answers unread. */
static void script_answer_all(int fd, void *arg)
{
    (void)arg;
    ClientMessage *m;
    uint64_t next_session = 1;
    while ((m = fake_read(fd)) != NULL) {
        switch (m->kind_case) {
        case FACEWORKER__V1__CLIENT_MESSAGE__KIND_OPEN_SESSION:
            fake_answer_open(fd, m, next_session++, m->open_session->options);
            break;
        case FACEWORKER__V1__CLIENT_MESSAGE__KIND_PROCESS_FRAME:
            answer_frame(fd, m, false);
            break;
        case FACEWORKER__V1__CLIENT_MESSAGE__KIND_CLOSE_SESSION:
            answer_close(fd, m);
            break;
        default:
            break;
        }
        faceworker__v1__client_message__free_unpacked(m, NULL);
    }
}

static void test_wire_unread_answers_are_freed(void)
{
    fake_worker *w;
    fw_client *c = fake_connect(script_answer_all, NULL, &w);
    REQUIRE(c, "fake worker");
    fw_error err;
    fw_session *a = open_session_in(c, FW_MODE_LIVE_STREAM, false);
    fw_session *b = open_session_in(c, FW_MODE_LIVE_STREAM, false);
    const uint8_t jpeg[] = {0xff, 0xd8};
    for (int i = 1; a && b && i <= 3; i++) {
        CHECK(fw_send_jpeg(a, jpeg, 2, i, &err) == FW_OK, "%s", err.message);
        CHECK(fw_send_jpeg(b, jpeg, 2, i, &err) == FW_OK, "%s", err.message);
    }
    fw_event ev;
    CHECK(fw_poll(a, -1, &ev, &err) == FW_OK && ev.type == FW_EVENT_RESULT, "one answer read");
    fw_result_free(ev.result);
    /* Closing a reads the rest of its answers on the way and frees them;
     * fw_close frees b with answers queued or still in flight. */
    CHECK(fw_close_session(a, &err) == FW_OK, "%s", err.message);
    CHECK(fw_close_session(NULL, &err) == FW_OK, "NULL is ignored");
    fw_close(NULL);
    fake_disconnect(c, w);
}

/* Opens one session, then refuses every frame as a stopping worker does. */
static void script_stopping(int fd, void *arg)
{
    (void)arg;
    ClientMessage *m;
    while ((m = fake_read(fd)) != NULL) {
        if (m->kind_case == FACEWORKER__V1__CLIENT_MESSAGE__KIND_OPEN_SESSION)
            fake_answer_open(fd, m, 4, m->open_session->options);
        else if (m->kind_case == FACEWORKER__V1__CLIENT_MESSAGE__KIND_PROCESS_FRAME)
            fake_write_status(fd, m->call_id, FACEWORKER__V1__STATUS__CODE__UNAVAILABLE, "the worker is shutting down");
        faceworker__v1__client_message__free_unpacked(m, NULL);
    }
}

/* Sends a frame stamped timestamp_ms to a worker running script_stopping and
 * returns the event that answers it. */
static fw_event frame_to_stopping_worker(fw_session *s, int64_t timestamp_ms)
{
    static const uint8_t jpeg[] = {0xff, 0xd8};
    fw_error err;
    fw_event ev = {0};
    CHECK(fw_send_jpeg(s, jpeg, sizeof jpeg, timestamp_ms, &err) == FW_OK, "%s", err.message);
    CHECK(fw_poll(s, -1, &ev, &err) == FW_OK, "%s", err.message);
    return ev;
}

static void test_wire_restart_drops_turn_a_stopping_refusal_into_a_drop(void)
{
    fake_worker *w;
    fw_client *c = fake_connect(script_stopping, NULL, &w);
    REQUIRE(c, "fake worker");
    fw_session *s = open_session_in(c, FW_MODE_LIVE_STREAM, false);
    if (CHECK_AT(s != NULL, "session")) {
        fw_event ev = frame_to_stopping_worker(s, 1);
        CHECK(ev.type == FW_EVENT_ERROR && ev.error.code == FW_UNAVAILABLE && contains(ev.error.message, "shutting down"),
              "off by default: the worker's refusal, with its reason: %d %s", ev.type, ev.error.message);
        fw_set_restart_drops(c, true);
        ev = frame_to_stopping_worker(s, 2);
        CHECK(ev.type == FW_EVENT_DROPPED && ev.drop_reason == FW_DROP_WORKER_RESTARTED && ev.timestamp_ms == 2,
              "on: dropped by the restart: %d %d", ev.type, ev.drop_reason);
    }
    fake_disconnect(c, w);
}

static void test_wire_auto_reconnect_turns_a_stopping_refusal_into_a_drop(void)
{
    fake_worker *w;
    fw_client *c = fake_connect(script_stopping, NULL, &w);
    REQUIRE(c, "fake worker");
    fw_set_auto_reconnect(c, true, NULL);
    fw_session *s = open_session_in(c, FW_MODE_LIVE_STREAM, false);
    if (CHECK_AT(s != NULL, "session")) {
        fw_event ev = frame_to_stopping_worker(s, 1);
        CHECK(ev.type == FW_EVENT_DROPPED && ev.drop_reason == FW_DROP_WORKER_RESTARTED && ev.timestamp_ms == 1,
              "restart drops come with auto-reconnect: %d %d", ev.type, ev.drop_reason);
    }
    fake_disconnect(c, w);
}

/* Opens sessions, then hangs up on the first other call without answering
 * it, as a worker that dies does. */
static void script_open_then_hang_up(int fd, void *arg)
{
    (void)arg;
    ClientMessage *m;
    while ((m = fake_read(fd)) != NULL) {
        bool open = m->kind_case == FACEWORKER__V1__CLIENT_MESSAGE__KIND_OPEN_SESSION;
        if (open)
            fake_answer_open(fd, m, 4, m->open_session->options);
        faceworker__v1__client_message__free_unpacked(m, NULL);
        if (!open)
            return;
    }
}

static void test_wire_auto_reconnect_fails_a_cut_call_once_then_gives_up(void)
{
    fake_worker *w;
    fw_client *c = fake_connect(script_open_then_hang_up, NULL, &w);
    REQUIRE(c, "fake worker");
    fw_reconnect_options o;
    fw_reconnect_options_init(&o);
    o.deadline_ms = 300;
    fw_set_auto_reconnect(c, true, &o);
    fw_error err;
    fw_session *s = open_session_in(c, FW_MODE_IMAGE, false);
    const uint8_t jpeg[] = {0xff, 0xd8};
    fw_result *r;
    if (CHECK_AT(s != NULL, "session")) {
        int rc = fw_process_jpeg(s, jpeg, 2, 0, &r, &err);
        CHECK(rc == FW_UNAVAILABLE && contains(err.message, "went away before answering (face-worker closed the "
                                                            "connection); the next call connects again"),
              "the cut call fails once, saying so: %s %s", fw_status_name(rc), err.message);
        /* The fake accepts no second connection: the session's re-opening
         * waits in its queue until the deadline. */
        rc = fw_process_jpeg(s, jpeg, 2, 0, &r, &err);
        CHECK(rc == FW_UNAVAILABLE && contains(err.message, "within 300 ms"), "the next call reconnects, in vain: %s",
              err.message);
        /* A worker is back: a call that tried again would find it. */
        REQUIRE(fake_worker_serve_again(w, script_answer_all, NULL, 1), "the fake worker back");
        rc = fw_process_jpeg(s, jpeg, 2, 0, &r, &err);
        CHECK(rc == FW_UNAVAILABLE && contains(err.message, "within 300 ms"),
              "every later call fails with the same error, without trying again: %s %s", fw_status_name(rc),
              err.message);
        CHECK(fw_reconnect(c, NULL, &err) == FW_OK, "until fw_reconnect: %s", err.message);
        rc = fw_process_jpeg(s, jpeg, 2, 0, &r, &err);
        CHECK(rc == FW_OK, "which brought the session back: %s", err.message);
        fw_result_free(r);
    }
    fake_disconnect(c, w);
}

int main(int argc, char **argv)
{
    (void)argv;
    if (argc != 1) {
        fprintf(stderr, "usage: test_wire\n");
        return 2;
    }
    RUN(test_status_names);
    RUN(test_connect_failure);
    RUN(test_wire_ping_partial_reads);
    RUN(test_wire_large_messages);
    RUN(test_wire_answers_in_any_order);
    RUN(test_wire_oversized_message);
    RUN(test_wire_bad_flag);
    RUN(test_wire_garbage_payload);
    RUN(test_wire_truncated_message);
    RUN(test_wire_worker_hangs_up_with_status);
    RUN(test_wire_unknown_call_id);
    RUN(test_wire_every_failure_is_told_in_words);
    RUN(test_wire_timeout_discards_late_answer);
    RUN(test_wire_busy_poll);
    RUN(test_wire_busy_poll_keeps_timeout);
    RUN(test_wire_unread_answers_are_freed);
    RUN(test_wire_restart_drops_turn_a_stopping_refusal_into_a_drop);
    RUN(test_wire_auto_reconnect_turns_a_stopping_refusal_into_a_drop);
    RUN(test_wire_auto_reconnect_fails_a_cut_call_once_then_gives_up);

    printf("%d passed, %d failed\n", tests_passed, tests_failed);
    return tests_failed == 0 ? 0 : 1;
}
