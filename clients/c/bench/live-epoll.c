/*
 * live-epoll: live-stream sessions served from one thread through the epoll
 * adapter, each sending on its own 30 fps schedule, to see whether a single
 * loop keeps every camera fed and whether any session starves.
 *
 *   live-epoll [-s SOCKET] [-c SESSIONS] [-k PER_CONNECTION] [-r FPS] [-n FRAMES]
 *              [--source JPEG] [--landmarks] [--json]
 *
 * Sessions are spread over connections, PER_CONNECTION on each (1 by
 * default: a camera per connection). One timerfd ticks SESSIONS x FPS
 * times a second and each tick sends the next session's frame in turn, so
 * the sessions' schedules are evenly offset, as independent cameras'
 * would be. Answers come to the asynchronous front's handler. The worker
 * may drop a live frame that a newer one replaced; a session is starved
 * when its share of answered frames falls behind the others'. Exit status
 * 0 only when no error happened and every frame got its answer.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "faceworker.h"
#include "faceworker/adapters/epoll.h"
#include "frames.h"

#define FIXTURE "Tests/Fixtures/astronaut.jpg"
#define SYNTHETIC_FRAMES 60
/* A wait that only a worker that stopped answering reaches. */
#define STUCK_MS 30000

struct session_run {
    fw_session *session;
    int sent, results, dropped, errors;
    int64_t *sent_ns; /* by frame index */
    uint64_t *latency_us;
    size_t latencies;
};

struct bench {
    const char *socket_path;
    int sessions, per_connection, fps, frames;
    bool landmarks, json;
    const char *source;
    bench_frames pictures;
    fw_client **clients;
    int client_count;
    struct session_run *runs;
    int answered_total, sent_total, errors;
    char first_error[FW_ERROR_MESSAGE_SIZE + 64];
    int64_t max_late_ns; /* the furthest a send fell behind its schedule */
};

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void note_error(struct bench *b, const char *what, const char *message)
{
    if (b->errors++ == 0)
        snprintf(b->first_error, sizeof b->first_error, "%s: %s", what, message);
}

static struct session_run *run_of(struct bench *b, const fw_session *s)
{
    for (int i = 0; i < b->sessions; i++)
        if (b->runs[i].session == s)
            return &b->runs[i];
    return NULL;
}

static void on_event(fw_session *s, fw_event *ev, void *data)
{
    struct bench *b = data;
    struct session_run *r = run_of(b, s);
    int64_t now = now_ns();
    if (r && ev->timestamp_ms >= 1 && ev->timestamp_ms <= b->frames) {
        if (ev->type == FW_EVENT_RESULT) {
            r->results++;
            r->latency_us[r->latencies++] = (uint64_t)(now - r->sent_ns[ev->timestamp_ms - 1]) / 1000;
        } else if (ev->type == FW_EVENT_DROPPED) {
            r->dropped++;
        } else if (ev->type == FW_EVENT_ERROR) {
            r->errors++;
            note_error(b, "a frame", ev->error.message);
        }
        if (ev->type != FW_EVENT_RESTARTED)
            b->answered_total++;
    }
    fw_result_free(ev->result);
}

static void on_connection_error(fw_client *c, const fw_error *err, void *data)
{
    (void)c;
    note_error(data, "the connection", err->message);
}

static void send_next(struct bench *b, struct session_run *r, int64_t due_ns)
{
    const bench_frame *p = &b->pictures.frames[(size_t)(r->sent + (r - b->runs)) % b->pictures.count];
    int64_t now = now_ns();
    if (now - due_ns > b->max_late_ns)
        b->max_late_ns = now - due_ns;
    r->sent_ns[r->sent] = now;
    fw_error err;
    if (fw_send_jpeg(r->session, p->jpeg, p->len, r->sent + 1, &err) != FW_OK) {
        note_error(b, "sending", err.message);
        b->answered_total++; /* it will get no answer */
    }
    r->sent++;
    b->sent_total++;
}

/* The timerfd: one tick per frame of some session, round robin. */
struct ticker {
    fw_epoll_handler handler;
    struct bench *bench;
    int fd;
    int next;         /* the session whose frame is next */
    int64_t start_ns; /* the schedule's origin */
    int64_t period_ns;
    long ticks;
};

static void on_tick(fw_epoll_handler *h, uint32_t events)
{
    struct ticker *t = (struct ticker *)h;
    struct bench *b = t->bench;
    uint64_t expirations;
    (void)events;
    if (read(t->fd, &expirations, sizeof expirations) != (ssize_t)sizeof expirations)
        return;
    /* Ticks the loop was too busy to take are sent now, late, so that the
     * lateness shows in max_late_ns rather than as fewer frames. */
    for (uint64_t i = 0; i < expirations && b->sent_total < b->sessions * b->frames; i++) {
        struct session_run *r = &b->runs[t->next];
        t->next = (t->next + 1) % b->sessions;
        t->ticks++;
        if (r->sent < b->frames)
            send_next(b, r, t->start_ns + t->ticks * t->period_ns);
    }
}

static int open_everything(struct bench *b)
{
    fw_async_handlers h = FW_ASYNC_HANDLERS_INIT;
    h.on_event = on_event;
    h.on_connection_error = on_connection_error;
    h.data = b;
    b->client_count = (b->sessions + b->per_connection - 1) / b->per_connection;
    b->clients = calloc((size_t)b->client_count, sizeof *b->clients);
    b->runs = calloc((size_t)b->sessions, sizeof *b->runs);
    if (!b->clients || !b->runs)
        return -1;
    fw_error err;
    for (int i = 0; i < b->sessions; i++) {
        struct session_run *r = &b->runs[i];
        r->sent_ns = calloc((size_t)b->frames, sizeof *r->sent_ns);
        r->latency_us = calloc((size_t)b->frames, sizeof *r->latency_us);
        if (!r->sent_ns || !r->latency_us)
            return -1;
        fw_client **c = &b->clients[i / b->per_connection];
        if (!*c && !(*c = fw_connect(b->socket_path, &err))) {
            fprintf(stderr, "live-epoll: %s\n", err.message);
            return -1;
        }
        fw_session_options o;
        fw_session_options_init(&o);
        o.running_mode = FW_MODE_LIVE_STREAM;
        o.tracking_enabled = true;
        o.landmarks = o.contours = o.classification = o.output_face_mesh = b->landmarks;
        if (!(r->session = fw_open_session(*c, &o, &err))) {
            fprintf(stderr, "live-epoll: opening a session: %s: %s\n", fw_status_name(err.code), err.message);
            return -1;
        }
    }
    for (int k = 0; k < b->client_count; k++)
        if (fw_async_start(b->clients[k], &h, &err) != FW_OK) {
            fprintf(stderr, "live-epoll: %s\n", err.message);
            return -1;
        }
    return 0;
}

static int run(struct bench *b, double *cpu_s, double *wall_s)
{
    int ep = epoll_create1(EPOLL_CLOEXEC);
    struct ticker t = {.handler = {on_tick}, .bench = b};
    t.fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    if (ep < 0 || t.fd < 0)
        return -1;
    fw_error err;
    for (int k = 0; k < b->client_count; k++)
        if (fw_epoll_attach(ep, b->clients[k], &err) != FW_OK) {
            fprintf(stderr, "live-epoll: %s\n", err.message);
            return -1;
        }
    struct epoll_event tick = {.events = EPOLLIN, .data.ptr = &t.handler};
    epoll_ctl(ep, EPOLL_CTL_ADD, t.fd, &tick);
    t.period_ns = 1000000000LL / ((int64_t)b->fps * b->sessions);
    struct itimerspec spec = {.it_interval = {0, t.period_ns}, .it_value = {0, t.period_ns}};
    struct rusage before, after;
    getrusage(RUSAGE_SELF, &before);
    t.start_ns = now_ns();
    timerfd_settime(t.fd, 0, &spec, NULL);
    int total = b->sessions * b->frames;
    int rc = 0;
    while (b->answered_total < total) {
        struct epoll_event evs[64];
        int n = epoll_wait(ep, evs, 64, STUCK_MS);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            note_error(b, "waiting", "no answer for 30 s");
            rc = -1;
            break;
        }
        for (int i = 0; i < n; i++)
            fw_epoll_dispatch(&evs[i]);
        if (b->sent_total == total) {
            struct itimerspec off = {0};
            timerfd_settime(t.fd, 0, &off, NULL);
        }
    }
    *wall_s = (double)(now_ns() - t.start_ns) / 1e9;
    getrusage(RUSAGE_SELF, &after);
    *cpu_s = (double)(after.ru_utime.tv_sec - before.ru_utime.tv_sec + after.ru_stime.tv_sec -
                      before.ru_stime.tv_sec) +
             (double)(after.ru_utime.tv_usec - before.ru_utime.tv_usec + after.ru_stime.tv_usec -
                      before.ru_stime.tv_usec) /
                 1e6;
    close(t.fd);
    for (int k = 0; k < b->client_count; k++) {
        fw_close(b->clients[k]);
        b->clients[k] = NULL;
    }
    close(ep);
    return rc;
}

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int compare_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static double percentile_ms(const uint64_t *sorted, size_t n, double p)
{
    if (n == 0)
        return 0;
    size_t i = (size_t)(p / 100.0 * (double)(n - 1) + 0.5);
    return (double)sorted[i] / 1000.0;
}

static void report(const struct bench *b, double cpu_s, double wall_s)
{
    int sent = 0, results = 0, dropped = 0, errors = 0;
    size_t latencies = 0;
    double *shares = calloc((size_t)b->sessions, sizeof *shares);
    for (int i = 0; i < b->sessions; i++) {
        const struct session_run *r = &b->runs[i];
        sent += r->sent;
        results += r->results;
        dropped += r->dropped;
        errors += r->errors;
        latencies += r->latencies;
        shares[i] = r->sent ? 100.0 * r->results / r->sent : 0;
    }
    uint64_t *all = calloc(latencies ? latencies : 1, sizeof *all);
    size_t n = 0;
    for (int i = 0; i < b->sessions; i++)
        for (size_t k = 0; k < b->runs[i].latencies; k++)
            all[n++] = b->runs[i].latency_us[k];
    qsort(all, n, sizeof *all, compare_u64);
    double *sorted = calloc((size_t)b->sessions, sizeof *sorted);
    memcpy(sorted, shares, (size_t)b->sessions * sizeof *sorted);
    qsort(sorted, (size_t)b->sessions, sizeof *sorted, compare_double);
    double lo = sorted[0], hi = sorted[b->sessions - 1], median = sorted[b->sessions / 2];
    double cpu_pct = wall_s > 0 ? 100.0 * cpu_s / wall_s : 0;
    if (b->json) {
        printf("{\"sessions\": %d, \"connections\": %d, \"threads\": 1, \"target_fps\": %d, \"frames_per_session\": %d, "
               "\"landmarks\": %s, \"sent\": %d, \"answered\": %d, \"dropped\": %d, \"errors\": %d, "
               "\"answered_share_pct\": {\"min\": %.2f, \"median\": %.2f, \"max\": %.2f, \"each\": [",
               b->sessions, b->client_count, b->fps, b->frames, b->landmarks ? "true" : "false", sent, results,
               dropped, errors + b->errors, lo, median, hi);
        for (int i = 0; i < b->sessions; i++)
            printf("%s%.2f", i ? ", " : "", shares[i]);
        printf("]}, \"latency_ms\": {\"p50\": %.3f, \"p99\": %.3f, \"max\": %.3f}, \"max_send_lateness_ms\": %.3f, "
               "\"client_cpu_pct\": %.2f, \"duration_s\": %.3f, \"first_error\": ",
               percentile_ms(all, n, 50), percentile_ms(all, n, 99), n ? (double)all[n - 1] / 1000.0 : 0,
               (double)b->max_late_ns / 1e6, cpu_pct, wall_s);
        if (b->errors)
            printf("\"%s\"}\n", b->first_error);
        else
            printf("null}\n");
    } else {
        printf("live-epoll: %d sessions on %d connections, one thread (epoll), %d fps each, %d frames each, %s\n",
               b->sessions, b->client_count, b->fps, b->frames, b->landmarks ? "whole pipeline" : "detection only");
        printf("frames:     %d sent, %d answered, %d dropped, %d errors\n", sent, results, dropped, errors + b->errors);
        printf("answered:   each session's share: min %.1f %%  median %.1f %%  max %.1f %%\n", lo, median, hi);
        printf("            ");
        for (int i = 0; i < b->sessions; i++)
            printf("%.1f%s", shares[i], i + 1 < b->sessions ? " " : "\n");
        printf("latency:    p50 %.2f  p99 %.2f  max %.2f ms (send to result, client clock)\n", percentile_ms(all, n, 50),
               percentile_ms(all, n, 99), n ? (double)all[n - 1] / 1000.0 : 0);
        printf("schedule:   sends at most %.2f ms behind their slots\n", (double)b->max_late_ns / 1e6);
        printf("client:     one thread, %.1f %% of a core over %.2f s\n", cpu_pct, wall_s);
        if (b->errors)
            printf("first error: %s\n", b->first_error);
    }
    free(all);
    free(sorted);
    free(shares);
}

static const char *find_fixture(char *buf, size_t size)
{
    if (access(FIXTURE, R_OK) == 0)
        return FIXTURE;
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return NULL;
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash)
        return NULL;
    *slash = '\0';
    snprintf(buf, size, "%s/../../../%s", exe, FIXTURE);
    return access(buf, R_OK) == 0 ? buf : NULL;
}

static void usage(FILE *to)
{
    fprintf(to, "usage: live-epoll [-s SOCKET] [-c SESSIONS] [-k PER_CONNECTION] [-r FPS] [-n FRAMES]\n"
                "                  [--source JPEG] [--landmarks] [--json]\n"
                "  -c  live-stream sessions (16)\n"
                "  -k  sessions per connection (1)\n"
                "  -r  frames per second of each session (30)\n"
                "  -n  frames each session sends (300)\n");
}

static bool parse_int(const char *s, int lo, int hi, int *out)
{
    char *end;
    errno = 0;
    long v = s ? strtol(s, &end, 10) : 0;
    if (!s || errno || *end || v < lo || v > hi)
        return false;
    *out = (int)v;
    return true;
}

int main(int argc, char **argv)
{
    struct bench b = {.sessions = 16, .per_connection = 1, .fps = 30, .frames = 300};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        bool ok = true;
        if (strcmp(a, "-s") == 0 && v)
            b.socket_path = argv[++i];
        else if (strcmp(a, "-c") == 0)
            ok = parse_int(v, 1, 1024, &b.sessions), i++;
        else if (strcmp(a, "-k") == 0)
            ok = parse_int(v, 1, 1024, &b.per_connection), i++;
        else if (strcmp(a, "-r") == 0)
            ok = parse_int(v, 1, 1000, &b.fps), i++;
        else if (strcmp(a, "-n") == 0)
            ok = parse_int(v, 1, 1000000, &b.frames), i++;
        else if (strcmp(a, "--source") == 0 && v)
            b.source = argv[++i];
        else if (strcmp(a, "--landmarks") == 0)
            b.landmarks = true;
        else if (strcmp(a, "--json") == 0)
            b.json = true;
        else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout);
            return 0;
        } else
            ok = false;
        if (!ok) {
            fprintf(stderr, "live-epoll: bad argument %s\n", a);
            usage(stderr);
            return 2;
        }
    }
    char found[PATH_MAX + 64], err[512];
    if (!b.source && !(b.source = find_fixture(found, sizeof found))) {
        fprintf(stderr, "live-epoll: cannot find %s; name a photograph with --source\n", FIXTURE);
        return 2;
    }
    if (frames_synthesize(b.source, SYNTHETIC_FRAMES, &b.pictures, err, sizeof err) != 0) {
        fprintf(stderr, "live-epoll: %s\n", err);
        return 2;
    }
    double cpu_s = 0, wall_s = 0;
    int rc = open_everything(&b) == 0 ? run(&b, &cpu_s, &wall_s) : -1;
    if (b.runs && b.runs[0].sent_ns)
        report(&b, cpu_s, wall_s);
    for (int k = 0; b.clients && k < b.client_count; k++)
        fw_close(b.clients[k]);
    for (int i = 0; b.runs && i < b.sessions; i++) {
        free(b.runs[i].sent_ns);
        free(b.runs[i].latency_us);
    }
    free(b.runs);
    free(b.clients);
    frames_free(&b.pictures);
    return rc == 0 && b.errors == 0 ? 0 : 1;
}
