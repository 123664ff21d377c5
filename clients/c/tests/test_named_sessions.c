/*
 * Tests of named sessions and subscriptions.
 *
 *   test_named_sessions --fixtures DIR [--socket PATH]
 *
 * The wire tests run against a scripted fake worker: every kind of event,
 * events arriving while other calls wait, the client's bounded queue, a
 * subscription given up on. With --socket, a producer and subscribers on
 * separate connections of a real face-worker follow the fixture video.
 * The last line printed is "N passed, N failed".
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fake_worker.h"
#include "faceworker.h"
#include "support.h"

typedef Faceworker__V1__ClientMessage ClientMessage;
typedef Faceworker__V1__WorkerMessage WorkerMessage;
typedef Faceworker__V1__SessionEvent SessionEvent;

static const char *fixtures_dir;
static const char *worker_socket;

/* ------------------------------------------------------------------------
 * Wire tests
 * ------------------------------------------------------------------------ */

#define SUBSCRIPTION_ID 41
#define FOLLOWED_SESSION 9

static void answer_subscribe(int fd, const ClientMessage *m, uint32_t queue_limit)
{
    Faceworker__V1__SubscribeResponse r = FACEWORKER__V1__SUBSCRIBE_RESPONSE__INIT;
    r.subscription_id = SUBSCRIPTION_ID;
    r.session_id = FOLLOWED_SESSION;
    r.name = m->subscribe->name;
    r.queue_limit = queue_limit;
    WorkerMessage w = FACEWORKER__V1__WORKER_MESSAGE__INIT;
    w.call_id = m->call_id;
    w.kind_case = FACEWORKER__V1__WORKER_MESSAGE__KIND_SUBSCRIBE;
    w.subscribe = &r;
    fake_write(fd, &w);
}

/* Writes one SessionEvent under call_id; `set` fills its event. */
static void write_event(int fd, uint64_t call_id, void (*set)(SessionEvent *, int64_t), int64_t arg)
{
    SessionEvent e = FACEWORKER__V1__SESSION_EVENT__INIT;
    e.subscription_id = SUBSCRIPTION_ID;
    set(&e, arg);
    WorkerMessage w = FACEWORKER__V1__WORKER_MESSAGE__INIT;
    w.call_id = call_id;
    w.kind_case = FACEWORKER__V1__WORKER_MESSAGE__KIND_SESSION_EVENT;
    w.session_event = &e;
    fake_write(fd, &w);
}

static void set_result(SessionEvent *e, int64_t ts)
{
    static Faceworker__V1__FrameResult r;
    static char *warnings[] = {"Corrupt JPEG data: 3 extraneous bytes"};
    faceworker__v1__frame_result__init(&r);
    r.session_id = FOLLOWED_SESSION;
    r.timestamp_ms = ts;
    r.image_width = 640;
    r.image_height = 360;
    r.n_warnings = ts == 1 ? 1 : 0;
    r.warnings = warnings;
    e->event_case = FACEWORKER__V1__SESSION_EVENT__EVENT_FRAME_RESULT;
    e->frame_result = &r;
}

static void set_dropped(SessionEvent *e, int64_t ts)
{
    static Faceworker__V1__FrameDropped d;
    faceworker__v1__frame_dropped__init(&d);
    d.session_id = FOLLOWED_SESSION;
    d.timestamp_ms = ts;
    d.reason = FACEWORKER__V1__FRAME_DROPPED__REASON__REASON_REPLACED;
    e->event_case = FACEWORKER__V1__SESSION_EVENT__EVENT_FRAME_DROPPED;
    e->frame_dropped = &d;
}

static void set_error(SessionEvent *e, int64_t ts)
{
    static Faceworker__V1__Status s;
    faceworker__v1__status__init(&s);
    s.code = FACEWORKER__V1__STATUS__CODE__INVALID_ARGUMENT;
    s.message = "the JPEG cannot be decoded";
    s.optional_session_id_case = FACEWORKER__V1__STATUS__OPTIONAL_SESSION_ID_SESSION_ID;
    s.session_id = FOLLOWED_SESSION;
    s.optional_timestamp_ms_case = FACEWORKER__V1__STATUS__OPTIONAL_TIMESTAMP_MS_TIMESTAMP_MS;
    s.timestamp_ms = ts;
    e->event_case = FACEWORKER__V1__SESSION_EVENT__EVENT_FRAME_ERROR;
    e->frame_error = &s;
}

static void set_missed(SessionEvent *e, int64_t count)
{
    static Faceworker__V1__EventsMissed m;
    faceworker__v1__events_missed__init(&m);
    m.count = (uint64_t)count;
    e->event_case = FACEWORKER__V1__SESSION_EVENT__EVENT_EVENTS_MISSED;
    e->events_missed = &m;
}

static void set_reset(SessionEvent *e, int64_t unused)
{
    (void)unused;
    static Faceworker__V1__SessionReset r;
    faceworker__v1__session_reset__init(&r);
    e->event_case = FACEWORKER__V1__SESSION_EVENT__EVENT_SESSION_RESET;
    e->session_reset = &r;
}

static void set_ended(SessionEvent *e, int64_t reason)
{
    static Faceworker__V1__SessionEnded end;
    faceworker__v1__session_ended__init(&end);
    end.reason = (Faceworker__V1__SessionEnded__Reason)reason;
    e->event_case = FACEWORKER__V1__SESSION_EVENT__EVENT_SESSION_ENDED;
    e->session_ended = &end;
}

struct stream_record {
    uint32_t queue_limit;
    int results_before_end; /* 0: the mixed stream */
    char name[64];
    bool unsubscribe_seen;
};

/* Subscribe; then the events, written around the answer to a ping so that
 * they arrive while the client waits for that call. */
static void script_stream(int fd, void *arg)
{
    struct stream_record *r = arg;
    ClientMessage *sub = fake_read(fd);
    if (!sub)
        return;
    snprintf(r->name, sizeof r->name, "%s", sub->subscribe->name);
    answer_subscribe(fd, sub, r->queue_limit);
    uint64_t id = sub->call_id;
    ClientMessage *ping = fake_read(fd);
    if (ping) {
        if (r->results_before_end == 0) {
            write_event(fd, id, set_result, 1);
            write_event(fd, id, set_dropped, 2);
            fake_answer_ping(fd, ping, ping->call_id, false);
            write_event(fd, id, set_error, 3);
            write_event(fd, id, set_missed, 4);
            write_event(fd, id, set_reset, 0);
            write_event(fd, id, set_result, 10);
        } else {
            for (int i = 0; i < r->results_before_end; i++)
                write_event(fd, id, set_result, 100 + i);
            fake_answer_ping(fd, ping, ping->call_id, false);
        }
        write_event(fd, id, set_ended, FACEWORKER__V1__SESSION_ENDED__REASON__REASON_SESSION_CLOSED);
        faceworker__v1__client_message__free_unpacked(ping, NULL);
        ClientMessage *m;
        while ((m = fake_read(fd)) != NULL) {
            r->unsubscribe_seen |= m->kind_case == FACEWORKER__V1__CLIENT_MESSAGE__KIND_UNSUBSCRIBE;
            faceworker__v1__client_message__free_unpacked(m, NULL);
        }
    }
    faceworker__v1__client_message__free_unpacked(sub, NULL);
}

static fw_subscription_event next_event(fw_subscription *sub)
{
    fw_subscription_event ev;
    fw_error err;
    int rc = fw_receive(sub, 5000, &ev, &err);
    CHECK(rc == FW_OK, "fw_receive: %s %s", fw_status_name(rc), err.message);
    CHECK(ev.size == sizeof ev && FW_STRUCT_HAS(fw_subscription_event, &ev, end_reason),
          "the event says it holds every member: %u bytes", ev.size);
    return ev;
}

static void test_wire_every_event_in_order_around_a_call(void)
{
    struct stream_record rec = {.queue_limit = 16};
    fake_worker *w;
    fw_client *c = fake_connect(script_stream, &rec, &w);
    REQUIRE(c, "fake worker");
    fw_error err;
    fw_subscription *sub = fw_subscribe(c, "door camera", &err);
    if (CHECK_AT(sub != NULL, "%s", err.message)) {
        CHECK(fw_subscription_id(sub) == SUBSCRIPTION_ID && fw_subscription_session_id(sub) == FOLLOWED_SESSION,
              "ids from the worker");
        CHECK(strcmp(fw_subscription_name(sub), "door camera") == 0, "name %s", fw_subscription_name(sub));
        CHECK(fw_subscription_queue_limit(sub) == 16, "queue limit");
        /* Two events arrive while the ping waits: they must wait too. */
        CHECK(fw_ping(c, NULL, 0, &err) == FW_OK, "%s", err.message);

        fw_subscription_event ev = next_event(sub);
        if (CHECK_AT(ev.type == FW_SUB_RESULT, "first: type %d", ev.type)) {
            CHECK(ev.timestamp_ms == 1 && fw_result_timestamp(ev.result) == 1, "result of frame 1");
            CHECK(fw_result_image_width(ev.result) == 640, "the result's fields read through");
            CHECK(fw_result_warning_count(ev.result) == 1 &&
                      contains(fw_result_warning(ev.result, 0), "extraneous bytes") &&
                      fw_result_warning(ev.result, 1) == NULL,
                  "the warning");
            fw_result_free(ev.result);
        }
        ev = next_event(sub);
        CHECK(ev.type == FW_SUB_DROPPED && ev.timestamp_ms == 2 && ev.drop_reason == FW_DROP_REPLACED,
              "a drop: type %d", ev.type);
        ev = next_event(sub);
        CHECK(ev.type == FW_SUB_FRAME_ERROR && ev.has_timestamp && ev.timestamp_ms == 3 &&
                  ev.error.code == FW_INVALID_ARGUMENT && contains(ev.error.message, "cannot be decoded"),
              "a frame error with its code, message and timestamp: type %d", ev.type);
        ev = next_event(sub);
        CHECK(ev.type == FW_SUB_MISSED && ev.missed == 4, "missed: type %d, %llu", ev.type,
              (unsigned long long)ev.missed);
        ev = next_event(sub);
        CHECK(ev.type == FW_SUB_RESET, "reset: type %d", ev.type);
        ev = next_event(sub);
        CHECK(ev.type == FW_SUB_RESULT && fw_result_warning_count(ev.result) == 0, "the next result: type %d",
              ev.type);
        fw_result_free(ev.result);
        ev = next_event(sub);
        CHECK(ev.type == FW_SUB_ENDED && ev.end_reason == FW_END_SESSION_CLOSED, "ended: type %d", ev.type);
        int rc = fw_receive(sub, 0, &ev, &err);
        CHECK(rc == FW_ERR_USAGE && contains(err.message, "has ended"), "nothing after the end: %s",
              err.message);
        CHECK(fw_unsubscribe(sub, &err) == FW_OK, "freeing an ended subscription: %s", err.message);
    }
    fake_disconnect(c, w);
    CHECK(strcmp(rec.name, "door camera") == 0, "the worker got the name %s", rec.name);
    CHECK(!rec.unsubscribe_seen, "an ended subscription needs no Unsubscribe");
}

static void test_wire_client_queue_is_bounded(void)
{
    struct stream_record rec = {.queue_limit = 2, .results_before_end = 5};
    fake_worker *w;
    fw_client *c = fake_connect(script_stream, &rec, &w);
    REQUIRE(c, "fake worker");
    fw_error err;
    fw_subscription *sub = fw_subscribe(c, "hall", &err);
    if (CHECK_AT(sub != NULL, "%s", err.message)) {
        CHECK(fw_ping(c, NULL, 0, &err) == FW_OK, "%s", err.message);
        fw_subscription_event ev = next_event(sub);
        CHECK(ev.type == FW_SUB_RESULT && ev.timestamp_ms == 100, "the first: type %d", ev.type);
        fw_result_free(ev.result);
        ev = next_event(sub);
        CHECK(ev.type == FW_SUB_RESULT && ev.timestamp_ms == 101, "the second: type %d", ev.type);
        fw_result_free(ev.result);
        ev = next_event(sub);
        CHECK(ev.type == FW_SUB_MISSED && ev.missed == 3, "three lost while the queue was full: type %d, %llu",
              ev.type, (unsigned long long)ev.missed);
        ev = next_event(sub);
        CHECK(ev.type == FW_SUB_ENDED, "the end always finds room: type %d", ev.type);
        fw_unsubscribe(sub, NULL);
    }
    fake_disconnect(c, w);
}

struct late_record {
    bool unsubscribed;
};

/* Answers Subscribe only after the client gave up, then streams until the
 * client unsubscribes; then answers a ping. */
static void script_late_subscription(int fd, void *arg)
{
    struct late_record *r = arg;
    ClientMessage *sub = fake_read(fd);
    if (!sub)
        return;
    ClientMessage *ping = fake_read(fd); /* sent after the timeout */
    if (ping) {
        answer_subscribe(fd, sub, 8);
        write_event(fd, sub->call_id, set_result, 1);
        ClientMessage *m = fake_read(fd);
        if (m && m->kind_case == FACEWORKER__V1__CLIENT_MESSAGE__KIND_UNSUBSCRIBE &&
            m->unsubscribe->subscription_id == SUBSCRIPTION_ID) {
            r->unsubscribed = true;
            write_event(fd, sub->call_id, set_ended, FACEWORKER__V1__SESSION_ENDED__REASON__REASON_UNSUBSCRIBED);
            Faceworker__V1__UnsubscribeResponse u = FACEWORKER__V1__UNSUBSCRIBE_RESPONSE__INIT;
            u.subscription_id = SUBSCRIPTION_ID;
            WorkerMessage w = FACEWORKER__V1__WORKER_MESSAGE__INIT;
            w.call_id = m->call_id;
            w.kind_case = FACEWORKER__V1__WORKER_MESSAGE__KIND_UNSUBSCRIBE;
            w.unsubscribe = &u;
            fake_write(fd, &w);
        }
        fake_answer_ping(fd, ping, ping->call_id, false);
        if (m)
            faceworker__v1__client_message__free_unpacked(m, NULL);
        faceworker__v1__client_message__free_unpacked(ping, NULL);
        fake_wait_for_hangup(fd);
    }
    faceworker__v1__client_message__free_unpacked(sub, NULL);
}

static void test_wire_subscription_given_up_on_is_ended(void)
{
    struct late_record rec = {0};
    fake_worker *w;
    fw_client *c = fake_connect(script_late_subscription, &rec, &w);
    REQUIRE(c, "fake worker");
    fw_error err;
    fw_set_timeout(c, 100);
    fw_subscription *sub = fw_subscribe(c, "late", &err);
    CHECK(sub == NULL && err.code == FW_DEADLINE_EXCEEDED, "gave up: %s", fw_status_name(err.code));
    fw_set_timeout(c, 10000);
    CHECK(fw_ping(c, NULL, 0, &err) == FW_OK, "its events are no protocol fault: %s", err.message);
    fake_disconnect(c, w);
    CHECK(rec.unsubscribed, "the client ended the subscription it no longer holds");
}

/* ------------------------------------------------------------------------
 * Worker tests
 * ------------------------------------------------------------------------ */

#define VIDEO_FRAMES 24

static bool read_video(uint8_t *frames[VIDEO_FRAMES], size_t lens[VIDEO_FRAMES])
{
    for (int i = 0; i < VIDEO_FRAMES; i++) {
        char name[64];
        snprintf(name, sizeof name, "video/frame_%03d.jpg", i);
        if (!(frames[i] = read_fixture(fixtures_dir, name, &lens[i]))) {
            for (int j = 0; j < i; j++)
                free(frames[j]);
            return false;
        }
    }
    return true;
}

static void free_video(uint8_t *frames[VIDEO_FRAMES])
{
    for (int i = 0; i < VIDEO_FRAMES; i++)
        free(frames[i]);
}

static fw_session *open_named(fw_client *c, fw_running_mode mode, const char *name, fw_error *err)
{
    fw_session_options o;
    fw_session_options_init(&o);
    o.running_mode = mode;
    o.tracking_enabled = mode != FW_MODE_IMAGE;
    return fw_open_named_session(c, &o, name, err);
}

static void test_worker_subscriber_follows_every_frame(void)
{
    uint8_t *frames[VIDEO_FRAMES];
    size_t lens[VIDEO_FRAMES];
    REQUIRE(read_video(frames, lens), "fixture video");
    fw_client *producer = connect_worker(worker_socket);
    fw_client *subscriber = connect_worker(worker_socket);
    fw_error err;
    fw_session *s = producer ? open_named(producer, FW_MODE_VIDEO, "c-test video", &err) : NULL;
    fw_subscription *sub = s && subscriber ? fw_subscribe(subscriber, "c-test video", &err) : NULL;
    if (CHECK_AT(sub != NULL, "session and subscription: %s", err.message)) {
        CHECK(strcmp(fw_session_name(s), "c-test video") == 0, "the session's name");
        CHECK(fw_subscription_session_id(sub) == fw_session_id(s), "the subscription follows the session");
        fw_session_options o = {0};
        fw_subscription_get_options(sub, &o);
        CHECK(o.running_mode == FW_MODE_VIDEO && o.tracking_enabled, "the producer's options");
        CHECK(fw_subscription_queue_limit(sub) > 0, "a queue limit");
        fw_box boxes[VIDEO_FRAMES];
        for (int i = 0; i < VIDEO_FRAMES; i++) {
            fw_result *r;
            int rc = fw_process_jpeg(s, frames[i], lens[i], 1000 + i, &r, &err);
            if (!CHECK_AT(rc == FW_OK, "frame %d: %s", i, err.message))
                break;
            boxes[i] = fw_result_face_count(r) ? fw_face_box(fw_result_face(r, 0)) : (fw_box){0};
            fw_result_free(r);
            /* The producer's own calls go on while the subscriber reads. */
            if (i == 5)
                CHECK(fw_ping(subscriber, NULL, 0, &err) == FW_OK, "%s", err.message);
        }
        int results = 0;
        bool same = true;
        fw_subscription_event ev;
        while (fw_receive(sub, WORKER_TIMEOUT_MS, &ev, &err) == FW_OK && ev.type == FW_SUB_RESULT) {
            same = same && ev.timestamp_ms == 1000 + results && fw_result_face_count(ev.result) == 1 &&
                   memcmp(&boxes[results], &(fw_box){0}, sizeof(fw_box)) != 0 &&
                   fw_face_box(fw_result_face(ev.result, 0)).x == boxes[results].x;
            fw_result_free(ev.result);
            if (++results == VIDEO_FRAMES)
                break;
        }
        CHECK(results == VIDEO_FRAMES, "every result, got %d", results);
        CHECK(same, "the same results, in order");
        CHECK(fw_close_session(s, &err) == FW_OK, "%s", err.message);
        CHECK(fw_receive(sub, WORKER_TIMEOUT_MS, &ev, &err) == FW_OK && ev.type == FW_SUB_ENDED &&
                  ev.end_reason == FW_END_SESSION_CLOSED,
              "ended as the session closed: type %d reason %d", ev.type, ev.end_reason);
        CHECK(fw_unsubscribe(sub, &err) == FW_OK, "%s", err.message);
    }
    fw_close(subscriber);
    fw_close(producer);
    free_video(frames);
}

static void test_worker_errors_resets_and_producer_gone(void)
{
    size_t len;
    uint8_t *jpeg = read_fixture(fixtures_dir, "astronaut.jpg", &len);
    REQUIRE(jpeg, "fixture");
    fw_client *producer = connect_worker(worker_socket);
    fw_client *subscriber = connect_worker(worker_socket);
    fw_error err;
    fw_session *s = producer ? open_named(producer, FW_MODE_VIDEO, "c-test errors", &err) : NULL;
    fw_subscription *sub = s && subscriber ? fw_subscribe(subscriber, "c-test errors", &err) : NULL;
    if (CHECK_AT(sub != NULL, "session and subscription: %s", err.message)) {
        fw_result *r;
        CHECK(fw_process_jpeg(s, jpeg, 100, 5, &r, &err) == FW_INVALID_ARGUMENT, "a cut JPEG is refused");
        CHECK(fw_reset_session(s, &err) == FW_OK, "%s", err.message);
        fw_close(producer);
        producer = NULL;
        fw_subscription_event ev;
        CHECK(fw_receive(sub, WORKER_TIMEOUT_MS, &ev, &err) == FW_OK && ev.type == FW_SUB_FRAME_ERROR,
              "the frame's error: type %d", ev.type);
        CHECK(ev.error.code == FW_INVALID_ARGUMENT && ev.error.message[0] && ev.has_timestamp &&
                  ev.timestamp_ms == 5,
              "with code, message and timestamp: %s %s %lld", fw_status_name(ev.error.code), ev.error.message,
              (long long)ev.timestamp_ms);
        CHECK(fw_receive(sub, WORKER_TIMEOUT_MS, &ev, &err) == FW_OK && ev.type == FW_SUB_RESET,
              "the reset: type %d", ev.type);
        CHECK(fw_receive(sub, WORKER_TIMEOUT_MS, &ev, &err) == FW_OK && ev.type == FW_SUB_ENDED &&
                  ev.end_reason == FW_END_PRODUCER_GONE,
              "ended as the producer left: type %d reason %d", ev.type, ev.end_reason);
        fw_unsubscribe(sub, NULL);
    }
    fw_close(subscriber);
    fw_close(producer);
    free(jpeg);
}

static void test_worker_unsubscribe_and_resubscribe(void)
{
    fw_client *producer = connect_worker(worker_socket);
    fw_client *subscriber = connect_worker(worker_socket);
    fw_error err;
    fw_session *s = producer ? open_named(producer, FW_MODE_IMAGE, "c-test unsubscribe", &err) : NULL;
    fw_subscription *sub = s && subscriber ? fw_subscribe(subscriber, "c-test unsubscribe", &err) : NULL;
    if (CHECK_AT(sub != NULL, "session and subscription: %s", err.message)) {
        fw_stats before, after;
        fw_stats_init(&before);
        fw_stats_init(&after);
        CHECK(fw_get_stats(subscriber, &before, &err) == FW_OK && before.subscriptions >= 1, "counted: %u",
              before.subscriptions);
        CHECK(fw_unsubscribe(sub, &err) == FW_OK, "%s", err.message);
        CHECK(fw_get_stats(subscriber, &after, &err) == FW_OK && after.subscriptions == before.subscriptions - 1,
              "no longer counted: %u", after.subscriptions);
        sub = fw_subscribe(subscriber, "c-test unsubscribe", &err);
        CHECK(sub != NULL, "subscribing again: %s", err.message);
    }
    /* Closing the client frees the live subscription and its events. */
    fw_close(subscriber);
    fw_close(producer);
}

static void test_worker_names_are_checked(void)
{
    fw_client *c = connect_worker(worker_socket);
    fw_client *other = connect_worker(worker_socket);
    REQUIRE(c && other, "connect");
    fw_error err;
    char long_name[FW_SESSION_NAME_MAX + 2];
    memset(long_name, 'n', sizeof long_name - 1);
    long_name[sizeof long_name - 1] = '\0';
    static const struct {
        const char *name;
        int code;
        const char *what;
    } bad[] = {{"", FW_INVALID_ARGUMENT, "empty"}, {"tab\there", FW_INVALID_ARGUMENT, "a control character"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        fw_session *s = open_named(c, FW_MODE_IMAGE, bad[i].name, &err);
        CHECK(s == NULL && err.code == bad[i].code && err.message[0], "%s: %s %s", bad[i].what,
              fw_status_name(err.code), err.message);
    }
    fw_session *s = open_named(c, FW_MODE_IMAGE, long_name, &err);
    CHECK(s == NULL && err.code == FW_INVALID_ARGUMENT && contains(err.message, "128"),
          "129 bytes: %s %s", fw_status_name(err.code), err.message);
    long_name[FW_SESSION_NAME_MAX] = '\0';
    s = open_named(c, FW_MODE_IMAGE, long_name, &err);
    CHECK(s != NULL && strcmp(fw_session_name(s), long_name) == 0, "128 bytes are allowed: %s", err.message);
    fw_close_session(s, NULL);

    fw_session *mine = open_named(c, FW_MODE_IMAGE, "c-test taken", &err);
    REQUIRE(mine, "%s", err.message);
    s = open_named(other, FW_MODE_IMAGE, "c-test taken", &err);
    CHECK(s == NULL && err.code == FW_ALREADY_EXISTS && err.message[0], "a name in use: %s %s",
          fw_status_name(err.code), err.message);
    fw_subscription *sub = fw_subscribe(c, "c-test taken", &err);
    CHECK(sub == NULL && err.code == FW_FAILED_PRECONDITION && err.message[0], "its own session: %s %s",
          fw_status_name(err.code), err.message);
    sub = fw_subscribe(other, "c-test nobody", &err);
    CHECK(sub == NULL && err.code == FW_NOT_FOUND && err.message[0], "an unknown name: %s %s",
          fw_status_name(err.code), err.message);
    sub = fw_subscribe(other, "", &err);
    CHECK(sub == NULL && err.code == FW_INVALID_ARGUMENT, "an empty name: %s", fw_status_name(err.code));
    CHECK(fw_close_session(mine, &err) == FW_OK, "%s", err.message);
    s = open_named(other, FW_MODE_IMAGE, "c-test taken", &err);
    CHECK(s != NULL, "the name is free once closed: %s", err.message);
    CHECK(fw_ping(c, NULL, 0, &err) == FW_OK && fw_ping(other, NULL, 0, &err) == FW_OK,
          "both connections go on after refusals");
    fw_close(other);
    fw_close(c);
}

int main(int argc, char **argv)
{
    if (!parse_test_arguments(argc, argv, &fixtures_dir, &worker_socket))
        return 2;

    RUN(test_wire_every_event_in_order_around_a_call);
    RUN(test_wire_client_queue_is_bounded);
    RUN(test_wire_subscription_given_up_on_is_ended);

    if (worker_socket) {
        RUN(test_worker_subscriber_follows_every_frame);
        RUN(test_worker_errors_resets_and_producer_gone);
        RUN(test_worker_unsubscribe_and_resubscribe);
        RUN(test_worker_names_are_checked);
    }

    printf("%d passed, %d failed\n", tests_passed, tests_failed);
    return tests_failed == 0 ? 0 : 1;
}
