/*
 * fw_reconnect() across real worker restarts: this program starts and stops
 * face-worker itself, on one socket path, so that a client outlives it.
 *
 *     test_reconnect --worker PATH --models DIR --fixtures DIR
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "faceworker.h"
#include "support.h"

static const char *worker_path, *models, *fixtures;
static char socket_path[108], log_path[128];
static pid_t worker = -1;
static uint8_t *jpeg;
static size_t jpeg_len;

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Starts a worker on socket_path and returns once it answers a ping. */
static bool start_worker(void)
{
    worker = fork();
    if (worker == 0) {
        int log = open(log_path, O_WRONLY | O_CREAT | O_APPEND, 0644);
        dup2(log, 1);
        dup2(log, 2);
        execl(worker_path, worker_path, "--socket", socket_path, "--models", models, (char *)NULL);
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
        nanosleep(&(struct timespec){.tv_nsec = 50 * 1000000}, NULL);
    }
    fprintf(stderr, "    face-worker did not start; see %s\n", log_path);
    return false;
}

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

static void test_a_video_session_keeps_its_name_across_a_restart(void)
{
    fw_client *c = connect_worker(socket_path);
    REQUIRE(c, "connected");
    fw_session *s = open_mode(c, FW_MODE_VIDEO, "c-door-camera");
    fw_error err;
    bool restarted = true;
    if (CHECK_AT(s, "opened") && CHECK_AT(process_restarted(s, 1, &restarted, &err) == FW_OK, "%s", err.message)) {
        CHECK(!restarted, "a first session is no restart");
        REQUIRE(restart_worker(SIGTERM), "restarted");
        int rc = process(s, 2, &err);
        CHECK(rc == FW_ERR_CLOSED || rc == FW_ERR_IO, "the cut call fails once: %d %s", rc, err.message);
        CHECK(fw_reconnect(c, NULL, &err) == FW_OK, "%s", err.message);
        CHECK(strcmp(fw_session_name(s), "c-door-camera") == 0, "the name is kept: %s", fw_session_name(s));
        CHECK(process_restarted(s, 3, &restarted, &err) == FW_OK, "the next call works: %s", err.message);
        CHECK(restarted, "its result says tracking started anew");
        CHECK(process_restarted(s, 4, &restarted, &err) == FW_OK && !restarted, "only the first says so");
    }
    fw_close(c);
}

static void test_live_frames_in_flight_are_dropped_once(void)
{
    fw_client *c = connect_worker(socket_path);
    REQUIRE(c, "connected");
    fw_session *s = open_mode(c, FW_MODE_LIVE_STREAM, NULL);
    fw_error err;
    fw_event ev;
    if (CHECK_AT(s, "opened")) {
        CHECK(fw_send_jpeg(s, jpeg, jpeg_len, 0, &err) == FW_OK, "%s", err.message);
        CHECK(fw_poll(s, -1, &ev, &err) == FW_OK && ev.type == FW_EVENT_RESULT, "%s", err.message);
        CHECK(ev.result && !fw_result_session_restarted(ev.result), "a first session is no restart");
        fw_result_free(ev.result);
        /* Frames on the wire that the worker will never answer: stopped, then killed. Three
         * fit in the socket's buffer, so sending them never waits for the stopped worker. */
        kill(worker, SIGSTOP);
        for (int64_t t = 1; t <= 3; t++)
            CHECK(fw_send_jpeg(s, jpeg, jpeg_len, t, &err) == FW_OK, "%s", err.message);
        REQUIRE(restart_worker(SIGKILL), "restarted");
        CHECK(fw_reconnect(c, NULL, &err) == FW_OK, "%s", err.message);
        for (int64_t t = 1; t <= 3; t++) {
            CHECK(fw_poll(s, 0, &ev, &err) == FW_OK, "%s", err.message);
            CHECK(ev.type == FW_EVENT_DROPPED && ev.drop_reason == FW_DROP_WORKER_RESTARTED && ev.timestamp_ms == t,
                  "frame %lld: event %d, reason %d, timestamp %lld", (long long)t, ev.type, ev.drop_reason,
                  (long long)ev.timestamp_ms);
        }
        CHECK(fw_session_pending(s) == 0, "every frame answered once: %zu pending", fw_session_pending(s));
        CHECK(fw_send_jpeg(s, jpeg, jpeg_len, 6, &err) == FW_OK, "%s", err.message);
        CHECK(fw_poll(s, -1, &ev, &err) == FW_OK && ev.type == FW_EVENT_RESULT && ev.timestamp_ms == 6,
              "the next frame gets its result: %d", ev.type);
        CHECK(ev.result && fw_result_session_restarted(ev.result), "which says tracking started anew");
        fw_result_free(ev.result);
        CHECK(fw_send_jpeg(s, jpeg, jpeg_len, 7, &err) == FW_OK, "%s", err.message);
        CHECK(fw_poll(s, -1, &ev, &err) == FW_OK && ev.type == FW_EVENT_RESULT && ev.result &&
                  !fw_result_session_restarted(ev.result),
              "only the first says so: %d", ev.type);
        fw_result_free(ev.result);
    }
    fw_close(c);
}

static void test_a_subscription_follows_the_session_again(void)
{
    fw_client *producer = connect_worker(socket_path);
    fw_client *follower = connect_worker(socket_path);
    REQUIRE(producer && follower, "connected");
    fw_session *s = open_mode(producer, FW_MODE_VIDEO, "c-followed");
    fw_error err;
    fw_subscription *sub = s ? fw_subscribe(follower, "c-followed", &err) : NULL;
    fw_subscription_event ev;
    if (CHECK_AT(sub, "subscribed")) {
        REQUIRE(restart_worker(SIGTERM), "restarted");
        /* The worker says it stops before it goes. */
        CHECK(fw_receive(sub, -1, &ev, &err) == FW_OK && ev.type == FW_SUB_ENDED &&
                  ev.end_reason == FW_END_WORKER_STOPPING,
              "the end: %d %d", ev.type, ev.end_reason);
        CHECK(fw_reconnect(producer, NULL, &err) == FW_OK, "%s", err.message);
        CHECK(fw_reconnect(follower, NULL, &err) == FW_OK, "%s", err.message);
        CHECK(fw_receive(sub, 0, &ev, &err) == FW_OK && ev.type == FW_SUB_RESTARTED, "told once: %d", ev.type);
        CHECK(process(s, 1, &err) == FW_OK, "%s", err.message);
        CHECK(fw_receive(sub, WORKER_TIMEOUT_MS, &ev, &err) == FW_OK && ev.type == FW_SUB_RESULT &&
                  ev.timestamp_ms == 1,
              "the new worker's result: %d", ev.type);
        fw_result_free(ev.result);
        CHECK(fw_subscription_session_id(sub) == fw_session_id(s), "follows the re-opened session");
    }
    fw_close(follower);
    fw_close(producer);
}

static void test_a_shared_buffer_is_registered_again(void)
{
    fw_client *c = connect_worker(socket_path);
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
        CHECK(fw_reconnect(c, NULL, &err) == FW_OK, "%s", err.message);
        CHECK(fw_process(s, &f, &r, &err) == FW_OK && fw_result_face_count(r) == 1, "%s", err.message);
        fw_result_free(r);
    }
    fw_close(c);
}

static void test_the_reconnect_gives_up_at_its_deadline(void)
{
    fw_client *c = connect_worker(socket_path);
    REQUIRE(c, "connected");
    stop_worker(SIGTERM);
    fw_reconnect_options o;
    fw_reconnect_options_init(&o);
    o.deadline_ms = 500;
    fw_error err;
    int64_t began = now_ms();
    int rc = fw_reconnect(c, &o, &err);
    int64_t took = now_ms() - began;
    CHECK(rc == FW_UNAVAILABLE && contains(err.message, "within 500 ms"), "%d %s", rc, err.message);
    CHECK(took >= 500 && took < 2500, "gave up after %lld ms", (long long)took);
    CHECK(fw_ping(c, "", 0, &err) == FW_UNAVAILABLE, "later calls say why: %s", err.message);
    fw_close(c);
    REQUIRE(start_worker(), "started again");
}

static void test_without_reconnect_every_later_call_fails(void)
{
    fw_client *c = connect_worker(socket_path);
    REQUIRE(c, "connected");
    fw_session *s = open_mode(c, FW_MODE_IMAGE, NULL);
    fw_error err;
    if (CHECK_AT(s, "opened")) {
        REQUIRE(restart_worker(SIGTERM), "restarted");
        int first = process(s, 0, &err);
        CHECK(first == FW_ERR_CLOSED || first == FW_ERR_IO, "%d %s", first, err.message);
        CHECK(process(s, 0, &err) == first, "the same error again: %s", err.message);
    }
    fw_close(c);
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
    char dir[] = "/tmp/fw-reconnect-XXXXXX";
    if (!mkdtemp(dir))
        return 2;
    snprintf(socket_path, sizeof socket_path, "%s/faceworker.sock", dir);
    snprintf(log_path, sizeof log_path, "%s/face-worker.log", dir);
    jpeg = read_fixture(fixtures, "astronaut.jpg", &jpeg_len);
    if (!jpeg || !start_worker())
        return 1;
    RUN(test_a_video_session_keeps_its_name_across_a_restart);
    RUN(test_live_frames_in_flight_are_dropped_once);
    RUN(test_a_subscription_follows_the_session_again);
    RUN(test_a_shared_buffer_is_registered_again);
    RUN(test_the_reconnect_gives_up_at_its_deadline);
    RUN(test_without_reconnect_every_later_call_fails);
    stop_worker(SIGTERM);
    free(jpeg);
    unlink(log_path);
    rmdir(dir);
    printf("%d passed, %d failed\n", tests_passed, tests_failed);
    return tests_failed ? 1 : 0;
}
