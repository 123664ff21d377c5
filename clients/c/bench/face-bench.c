/*
 * face-bench: puts load on a running face-worker from N concurrent sessions,
 * each on its own connection and thread, and reports round-trip latency,
 * the worker's stage times, throughput, drops and errors. Its ping mode
 * times empty Ping round trips instead, the floor under every request, and
 * its echo mode the floor under that: the same round trip to a bare echo
 * process, without the worker. Frames may be JPEG files or one raw frame,
 * carried in the messages or written once into a shared-memory buffer and
 * named by region; a session may be named, and the subscribe mode follows
 * such a session from another process.
 *
 * It is the thinnest client there is: frames are encoded before the clock
 * starts, and each session only sends them and takes the answers.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "echo.h"
#include "faceworker.h"
#include "frames.h"
#include "subscriber.h"

/* Distinct synthetic frames; sessions cycle through them. */
#define SYNTHETIC_FRAMES 60
/* How long a session waits for any answer before it counts an error. */
#define ANSWER_TIMEOUT_MS 30000
#define FIXTURE "Tests/FaceDetectionTests/Fixtures/astronaut.jpg"

enum { STAGE_QUEUED, STAGE_DECODE, STAGE_DETECT, STAGE_LANDMARKS, STAGE_TOTAL, STAGES };
static const char *const stage_names[STAGES] = {"queued", "decode", "detect", "landmarks", "total"};

enum bench_mode { MODE_VIDEO, MODE_LIVE, MODE_PING, MODE_ECHO, MODE_SUBSCRIBE };
static const char *const mode_names[] = {"video", "live", "ping", "echo", "subscribe"};
/* How long the producer waits for its subscribers, and a subscriber for
 * the session it follows to open. */
#define RENDEZVOUS_S 60

/* One raw frame from a file, sent in place of JPEG files. */
struct raw_input {
    const char *path;
    uint8_t *bytes;
    size_t len;
    fw_pixel_format format;
    uint32_t width, height;
};
/* An empty Ping's size on the wire: the 5-byte frame header and its
 * message. */
#define ECHO_BYTES 12

struct config {
    const char *socket_path;
    int sessions;
    enum bench_mode mode;
    double fps; /* 0: as fast as possible */
    size_t frames;
    const char *dir;
    const char *source;
    bool landmarks;
    bool landmarker; /* the Face Landmarker with blendshapes and matrix, as MediaPipe Tasks runs it */
    uint32_t num_faces;
    bool json;
    const char *samples; /* file for every round trip, or NULL */
    int busy_poll_us;
    struct raw_input raw;   /* bytes NULL: JPEG frames */
    bool shared_memory;     /* frames written once into a buffer, sent as regions */
    const char *name;       /* the session's name, or the one to follow */
    int wait_subscribers;   /* subscriptions to wait for before sending */
    const char *events;     /* file for every answer's send and arrival times */
};

/* One answer, for --events: the frame, what came, and when it was sent and
 * arrived on the host's wall clock. */
struct answer_time {
    int64_t timestamp_ms;
    const char *kind;
    int64_t sent_unix_ns, arrived_unix_ns;
};

/* One session's run: its inputs, and what it measured. */
struct run {
    const struct config *cfg;
    const bench_frames *frames;
    pthread_barrier_t *start;
    int64_t *timestamps; /* per frame, strictly increasing */
    int64_t *sent_ns;    /* per frame, when it was sent */
    /* Per answer, in ns: round trip at sub-microsecond resolution, since a
     * Ping takes only a few microseconds. */
    uint64_t *latency_ns;
    uint64_t *overhead_ns; /* round trip minus the worker's total */
    uint64_t *stage_ns[STAGES];
    size_t answered, sent, dropped, errors, faces;
    int64_t first_send_ns, last_answer_ns;
    char first_error[FW_ERROR_MESSAGE_SIZE + 64];
    fw_buffer *buffer;       /* with --shared-memory */
    size_t *offsets;         /* where each JPEG frame is in it */
    int64_t *sent_unix_ns;   /* per frame, with --events */
    struct answer_time *log; /* per answer, with --events */
    size_t logged;
};

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void sleep_until(int64_t t_ns)
{
    struct timespec ts = {.tv_sec = t_ns / 1000000000, .tv_nsec = t_ns % 1000000000};
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
        ;
}

__attribute__((format(printf, 2, 3))) static void record_error(struct run *r, const char *fmt, ...)
{
    r->errors++;
    if (r->first_error[0])
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->first_error, sizeof r->first_error, fmt, ap);
    va_end(ap);
}

static bool connection_gone(int rc)
{
    return rc == FW_ERR_IO || rc == FW_ERR_CLOSED || rc == FW_ERR_PROTOCOL;
}

static void record_result(struct run *r, const fw_result *result, int64_t sent, int64_t received)
{
    size_t i = r->answered++;
    uint64_t latency = (uint64_t)(received - sent);
    fw_timings t = fw_result_timings(result);
    uint64_t total = t.total_us * 1000;
    r->latency_ns[i] = latency;
    r->overhead_ns[i] = latency > total ? latency - total : 0;
    r->stage_ns[STAGE_QUEUED][i] = t.queued_us * 1000;
    r->stage_ns[STAGE_DECODE][i] = t.decode_us * 1000;
    r->stage_ns[STAGE_DETECT][i] = t.detect_us * 1000;
    r->stage_ns[STAGE_LANDMARKS][i] = t.landmarks_us * 1000;
    r->stage_ns[STAGE_TOTAL][i] = total;
    r->faces += fw_result_face_count(result);
    r->last_answer_ns = received;
}

/* A Ping has no worker stages: its whole round trip is transport. */
static void record_ping(struct run *r, int64_t sent, int64_t received)
{
    size_t i = r->answered++;
    r->latency_ns[i] = r->overhead_ns[i] = (uint64_t)(received - sent);
    for (int k = 0; k < STAGES; k++)
        r->stage_ns[k][i] = 0;
    r->last_answer_ns = received;
}

/* Frame i as the session sends it: its bytes inline, or a region of the
 * session's buffer. */
static fw_frame frame_for(const struct run *r, size_t i)
{
    const struct raw_input *raw = &r->cfg->raw;
    fw_frame f = {.timestamp_ms = r->timestamps[i]};
    if (raw->bytes) {
        f.format = raw->format;
        f.width = raw->width;
        f.height = raw->height;
        if (r->buffer)
            f.pixels_region = (fw_region){r->buffer, 0, raw->len};
        else
            f.pixels = raw->bytes, f.pixels_len = raw->len;
        return f;
    }
    size_t k = i % r->frames->count;
    if (r->buffer)
        f.jpeg_region = (fw_region){r->buffer, r->offsets[k], r->frames->frames[k].len};
    else
        f.jpeg = r->frames->frames[k].jpeg, f.jpeg_len = r->frames->frames[k].len;
    return f;
}

static void log_answer(struct run *r, size_t i, const char *kind)
{
    if (r->log)
        r->log[r->logged++] = (struct answer_time){r->timestamps[i], kind, r->sent_unix_ns[i], unix_ns()};
}

/* Writes every frame once into one buffer of the session's client. */
static int place_frames(struct run *r, fw_client *c, fw_error *err)
{
    const struct raw_input *raw = &r->cfg->raw;
    size_t total = raw->bytes ? raw->len : 0;
    if (!raw->bytes) {
        if (!(r->offsets = malloc(r->frames->count * sizeof *r->offsets)))
            return FW_ERR_NOMEM;
        for (size_t k = 0; k < r->frames->count; k++) {
            r->offsets[k] = total;
            total += r->frames->frames[k].len;
        }
    }
    if (!(r->buffer = fw_register_buffer(c, total, err)))
        return err->code;
    uint8_t *data = fw_buffer_data(r->buffer);
    if (raw->bytes)
        memcpy(data, raw->bytes, raw->len);
    for (size_t k = 0; !raw->bytes && k < r->frames->count; k++)
        memcpy(data + r->offsets[k], r->frames->frames[k].jpeg, r->frames->frames[k].len);
    return FW_OK;
}

static int64_t period_ns(const struct config *cfg)
{
    return cfg->fps > 0 ? (int64_t)llround(1e9 / cfg->fps) : 0;
}

/* Calls step(r, i, ctx) for each frame in turn, on schedule when -r gives
 * a rate, as fast as it returns otherwise; stops when step returns false
 * (the connection is gone). */
static void run_paced(struct run *r, bool (*step)(struct run *, size_t, void *), void *ctx)
{
    int64_t start = now_ns(), period = period_ns(r->cfg);
    r->first_send_ns = start;
    for (size_t i = 0; i < r->cfg->frames; i++) {
        if (period > 0)
            sleep_until(start + (int64_t)i * period);
        r->sent++;
        if (!step(r, i, ctx))
            return;
    }
}

/* Video mode: one frame, then its result. */
static bool video_step(struct run *r, size_t i, void *session)
{
    fw_frame f = frame_for(r, i);
    fw_result *result;
    fw_error err;
    if (r->sent_unix_ns)
        r->sent_unix_ns[i] = unix_ns();
    int64_t sent = now_ns();
    int rc = fw_process(session, &f, &result, &err);
    int64_t received = now_ns();
    if (rc == FW_OK) {
        log_answer(r, i, "result");
        record_result(r, result, sent, received);
        fw_result_free(result);
    } else if (rc == FW_ERR_DROPPED) {
        log_answer(r, i, "dropped");
        r->dropped++;
    } else {
        log_answer(r, i, "error");
        record_error(r, "frame %lld: %s: %s", (long long)r->timestamps[i], fw_status_name(rc), err.message);
        return !connection_gone(rc);
    }
    return true;
}

static bool ping_step(struct run *r, size_t i, void *client)
{
    fw_error err;
    int64_t sent = now_ns();
    int rc = fw_ping(client, NULL, 0, &err);
    int64_t received = now_ns();
    if (rc != FW_OK) {
        record_error(r, "ping %zu: %s: %s", i, fw_status_name(rc), err.message);
        return !connection_gone(rc);
    }
    record_ping(r, sent, received);
    return true;
}

static bool echo_step(struct run *r, size_t i, void *peer)
{
    static const char message[ECHO_BYTES] = "face-bench";
    int64_t sent = now_ns();
    int rc = echo_round_trip(peer, message, sizeof message, r->cfg->busy_poll_us);
    int64_t received = now_ns();
    if (rc != 0) {
        record_error(r, "echo %zu: %s", i, strerror(errno));
        return false;
    }
    record_ping(r, sent, received);
    return true;
}

static void run_echo(struct run *r)
{
    echo_peer peer;
    char err[256];
    if (echo_start(&peer, err, sizeof err) != 0) {
        record_error(r, "starting the echo process: %s", err);
        return;
    }
    run_paced(r, echo_step, &peer);
    echo_stop(&peer);
}

static int compare_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static void take_event(struct run *r, fw_event *ev)
{
    int64_t received = now_ns();
    const int64_t *hit = bsearch(&ev->timestamp_ms, r->timestamps, r->cfg->frames, sizeof *r->timestamps,
                                 compare_i64);
    if (hit && ev->type != FW_EVENT_NONE && ev->type != FW_EVENT_RESTARTED)
        log_answer(r, (size_t)(hit - r->timestamps),
                   ev->type == FW_EVENT_RESULT ? "result" : ev->type == FW_EVENT_DROPPED ? "dropped" : "error");
    switch (ev->type) {
    case FW_EVENT_RESULT:
        if (hit)
            record_result(r, ev->result, r->sent_ns[hit - r->timestamps], received);
        else
            record_error(r, "a result for frame %lld, which was never sent", (long long)ev->timestamp_ms);
        fw_result_free(ev->result);
        break;
    case FW_EVENT_DROPPED:
        r->dropped++;
        break;
    case FW_EVENT_ERROR:
        record_error(r, "frame %lld: %s: %s", (long long)ev->timestamp_ms, fw_status_name(ev->error.code),
                     ev->error.message);
        break;
    case FW_EVENT_NONE:
    case FW_EVENT_RESTARTED: /* no frame's answer: those a restart cut off come as drops */
        break;
    }
}

/* Waits up to timeout_ms for answers; false when the connection failed. */
static bool receive(struct run *r, fw_session *s, int timeout_ms, bool *got)
{
    fw_event ev;
    fw_error err;
    int rc = fw_poll(s, timeout_ms, &ev, &err);
    if (rc != FW_OK) {
        record_error(r, "%s: %s", fw_status_name(rc), err.message);
        return false;
    }
    *got = ev.type != FW_EVENT_NONE;
    take_event(r, &ev);
    return true;
}

static void run_live(struct run *r, fw_session *s)
{
    int64_t start = now_ns(), period = period_ns(r->cfg);
    r->first_send_ns = start;
    bool got;
    for (size_t i = 0; i < r->cfg->frames; i++) {
        if (period > 0) {
            int64_t due = start + (int64_t)i * period;
            for (int64_t left; (left = due - now_ns()) > 0;)
                if (!receive(r, s, (int)((left + 999999) / 1000000), &got))
                    return;
        }
        fw_frame f = frame_for(r, i);
        fw_error err;
        if (r->sent_unix_ns)
            r->sent_unix_ns[i] = unix_ns();
        r->sent_ns[i] = now_ns();
        int rc = fw_send(s, &f, &err);
        if (rc != FW_OK) {
            record_error(r, "sending frame %lld: %s: %s", (long long)r->timestamps[i], fw_status_name(rc),
                         err.message);
            if (connection_gone(rc))
                return;
            continue;
        }
        r->sent++;
        do {
            if (!receive(r, s, 0, &got))
                return;
        } while (got);
    }
    while (fw_session_pending(s) > 0) {
        if (!receive(r, s, ANSWER_TIMEOUT_MS, &got))
            return;
        if (!got) {
            record_error(r, "no answer within %d ms for %zu frames", ANSWER_TIMEOUT_MS, fw_session_pending(s));
            return;
        }
    }
}

/* Waits until the worker counts n subscriptions. */
static bool await_subscribers(fw_client *c, int n, fw_error *err)
{
    int64_t give_up = now_ns() + (int64_t)RENDEZVOUS_S * 1000000000;
    fw_stats st;
    fw_stats_init(&st);
    while (fw_get_stats(c, &st, err) == FW_OK) {
        if (st.subscriptions >= (uint32_t)n)
            return true;
        if (now_ns() > give_up) {
            err->code = FW_DEADLINE_EXCEEDED;
            snprintf(err->message, sizeof err->message, "%u after %d s", st.subscriptions, RENDEZVOUS_S);
            return false;
        }
        sleep_until(now_ns() + 5000000);
    }
    return false;
}

static void *session_thread(void *arg)
{
    struct run *r = arg;
    const struct config *cfg = r->cfg;
    fw_error err;
    fw_session *s = NULL;
    fw_client *c = NULL;
    if (cfg->mode == MODE_ECHO) {
        pthread_barrier_wait(r->start);
        run_echo(r);
        return NULL;
    }
    c = fw_connect(cfg->socket_path, &err);
    if (c)
        fw_set_busy_poll(c, cfg->busy_poll_us);
    if (!c) {
        record_error(r, "%s", err.message);
    } else if (cfg->mode != MODE_PING) {
        fw_set_timeout(c, ANSWER_TIMEOUT_MS);
        fw_session_options o;
        fw_session_options_init(&o);
        o.running_mode = cfg->mode == MODE_LIVE ? FW_MODE_LIVE_STREAM : FW_MODE_VIDEO;
        o.tracking_enabled = true;
        o.landmarks = o.contours = o.classification = o.output_face_mesh = cfg->landmarks;
        if (cfg->landmarker) {
            /* What a MediaPipe Tasks FaceLandmarker asks for: no tracking IDs, no ML Kit outputs. */
            o.tracking_enabled = false;
            o.mesh_model = FW_MESH_FACE_LANDMARKER;
            o.output_face_mesh = o.output_face_blendshapes = o.output_transformation_matrix = true;
        }
        o.num_faces = cfg->num_faces;
        s = cfg->name ? fw_open_named_session(c, &o, cfg->name, &err) : fw_open_session(c, &o, &err);
        if (!s)
            record_error(r, "opening a session: %s: %s", fw_status_name(err.code), err.message);
        if (s && cfg->shared_memory && place_frames(r, c, &err) != FW_OK)
            record_error(r, "registering a buffer: %s: %s", fw_status_name(err.code), err.message);
        if (s && cfg->wait_subscribers > 0 && !await_subscribers(c, cfg->wait_subscribers, &err))
            record_error(r, "waiting for %d subscribers: %s: %s", cfg->wait_subscribers, fw_status_name(err.code),
                         err.message);
    }
    /* Every session starts at once, whether or not it could connect. */
    pthread_barrier_wait(r->start);
    if (s) {
        if (cfg->mode == MODE_LIVE)
            run_live(r, s);
        else
            run_paced(r, video_step, s);
    } else if (c && cfg->mode == MODE_PING) {
        fw_set_timeout(c, ANSWER_TIMEOUT_MS);
        run_paced(r, ping_step, c);
    }
    /* Closed, not left to the connection's end, so that its subscribers
     * hear that the session closed rather than that its producer left. */
    fw_close_session(s, NULL);
    fw_unregister_buffer(r->buffer, NULL);
    fw_close(c);
    return NULL;
}

/* ------------------------------------------------------------------------
 * Statistics and output
 * ------------------------------------------------------------------------ */

static int compare_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Nearest-rank percentile of sorted values in ns, in ms; 0 when there are
 * none. */
static double percentile_ms(const uint64_t *sorted, size_t n, double p)
{
    if (n == 0)
        return 0;
    size_t rank = (size_t)ceil(p / 100.0 * (double)n);
    return (double)sorted[rank == 0 ? 0 : rank - 1] / 1e6;
}

struct summary {
    size_t sent, answered, dropped, errors, faces;
    double p50, p90, p99, max;
    double overhead_p50;
    double stage_p50[STAGES];
    double seconds, throughput;
    long max_rss_kib;
    const char *first_error;
};

/* This process's peak resident memory in KiB (VmHWM), or -1. Not
 * getrusage(): its ru_maxrss survives execve, so a face-bench started by a
 * large process would report its parent's peak. */
static long peak_rss_kib(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (!f)
        return -1;
    char line[256];
    long kib = -1;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "VmHWM: %ld kB", &kib) == 1)
            break;
    fclose(f);
    return kib;
}

/* Joins the sessions' arrays into one sorted array per measure. */
static int summarize(struct run *runs, int n, struct summary *out)
{
    memset(out, 0, sizeof *out);
    size_t total = 0;
    int64_t first = INT64_MAX, last = 0;
    for (int i = 0; i < n; i++) {
        total += runs[i].answered;
        out->sent += runs[i].sent;
        out->dropped += runs[i].dropped;
        out->errors += runs[i].errors;
        out->faces += runs[i].faces;
        if (!out->first_error && runs[i].first_error[0])
            out->first_error = runs[i].first_error;
        if (runs[i].answered > 0) {
            first = runs[i].first_send_ns < first ? runs[i].first_send_ns : first;
            last = runs[i].last_answer_ns > last ? runs[i].last_answer_ns : last;
        }
    }
    out->answered = total;
    uint64_t *all = malloc((total ? total : 1) * sizeof *all);
    if (!all)
        return -1;
    /* Stages first, then the transport overhead, then the round trip. */
    for (int k = 0; k < STAGES + 2; k++) {
        size_t at = 0;
        for (int i = 0; i < n; i++) {
            const uint64_t *src = k < STAGES ? runs[i].stage_ns[k]
                                  : k == STAGES ? runs[i].overhead_ns
                                                : runs[i].latency_ns;
            memcpy(all + at, src, runs[i].answered * sizeof *all);
            at += runs[i].answered;
        }
        qsort(all, total, sizeof *all, compare_u64);
        if (k < STAGES) {
            out->stage_p50[k] = percentile_ms(all, total, 50);
        } else if (k == STAGES) {
            out->overhead_p50 = percentile_ms(all, total, 50);
        } else {
            out->p50 = percentile_ms(all, total, 50);
            out->p90 = percentile_ms(all, total, 90);
            out->p99 = percentile_ms(all, total, 99);
            out->max = total ? (double)all[total - 1] / 1e6 : 0;
        }
    }
    free(all);
    if (total > 0 && last > first) {
        out->seconds = (double)(last - first) / 1e9;
        out->throughput = (double)total / out->seconds;
    }
    out->max_rss_kib = peak_rss_kib();
    return 0;
}

/* Every round trip in µs, one per line, session after session, for
 * histograms and statistics of the caller's own. */
static int write_samples(const char *path, const struct run *runs, int n)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "face-bench: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    for (int i = 0; i < n; i++)
        for (size_t k = 0; k < runs[i].answered; k++)
            fprintf(f, "%.3f\n", (double)runs[i].latency_ns[k] / 1000.0);
    if (fclose(f) != 0) {
        fprintf(stderr, "face-bench: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    return 0;
}

static void print_json_string(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            printf("\\%c", ch);
        else if (ch < 0x20)
            printf("\\u%04x", ch);
        else
            putchar(ch);
    }
    putchar('"');
}

static void print_json(const struct config *cfg, const bench_frames *frames, const struct summary *s)
{
    printf("{\"sessions\":%d,\"mode\":\"%s\",\"target_fps\":%g,\"frames_per_session\":%zu,", cfg->sessions,
           mode_names[cfg->mode], cfg->fps, cfg->frames);
    printf("\"landmarks\":%s,\"landmarker\":%s,\"num_faces\":%u,\"source\":", cfg->landmarks ? "true" : "false",
           cfg->landmarker ? "true" : "false", cfg->num_faces);
    if (cfg->mode == MODE_PING || cfg->mode == MODE_ECHO)
        printf("null");
    else
        print_json_string(cfg->raw.bytes ? cfg->raw.path : cfg->dir ? cfg->dir : "synthetic");
    printf(",\"frame_width\":%d,\"frame_height\":%d,\"distinct_frames\":%zu,", frames->width, frames->height,
           frames->count);
    printf("\"sent\":%zu,\"answered\":%zu,\"dropped\":%zu,\"errors\":%zu,\"faces\":%zu,", s->sent,
           s->answered, s->dropped, s->errors, s->faces);
    printf("\"latency_ms\":{\"p50\":%.4f,\"p90\":%.4f,\"p99\":%.4f,\"max\":%.4f},", s->p50, s->p90, s->p99,
           s->max);
    printf("\"worker_median_ms\":{");
    for (int k = 0; k < STAGES; k++)
        printf("%s\"%s\":%.3f", k ? "," : "", stage_names[k], s->stage_p50[k]);
    printf("},\"transport_median_ms\":%.3f,", s->overhead_p50);
    printf("\"busy_poll_us\":%d,\"shared_memory\":%s,\"raw_format\":", cfg->busy_poll_us,
           cfg->shared_memory ? "true" : "false");
    if (cfg->raw.bytes)
        print_json_string(cfg->raw.format == FW_PIXEL_NV12 ? "nv12" : "rgb");
    else
        printf("null");
    printf(",");
    printf("\"throughput_fps\":%.2f,\"duration_s\":%.3f,\"max_rss_kib\":%ld,\"first_error\":", s->throughput,
           s->seconds, s->max_rss_kib);
    if (s->first_error)
        print_json_string(s->first_error);
    else
        printf("null");
    printf("}\n");
}

static void print_ping_text(const struct config *cfg, const char *rate, const struct summary *s)
{
    if (cfg->mode == MODE_PING)
        printf("face-bench: %d connection%s x %zu empty Pings, %s\n", cfg->sessions,
               cfg->sessions == 1 ? "" : "s", cfg->frames, rate);
    else
        printf("face-bench: %d bare echo process%s x %zu %d-byte round trips, %s (no worker)\n", cfg->sessions,
               cfg->sessions == 1 ? "" : "es", cfg->frames, ECHO_BYTES, rate);
    printf("round trips: %zu sent, %zu answered, %zu errors\n", s->sent, s->answered, s->errors);
    printf("latency:    p50 %.1f  p90 %.1f  p99 %.1f  max %.1f us (round trip, client clock)\n", s->p50 * 1000,
           s->p90 * 1000, s->p99 * 1000, s->max * 1000);
    printf("throughput: %.0f round trips/s over %.2f s; client peak RSS %ld KiB\n", s->throughput, s->seconds,
           s->max_rss_kib);
    if (s->first_error)
        printf("first error: %s\n", s->first_error);
}

static void print_text(const struct config *cfg, const bench_frames *frames, const struct summary *s)
{
    char rate[32];
    if (cfg->fps > 0)
        snprintf(rate, sizeof rate, "%g per second", cfg->fps);
    else
        snprintf(rate, sizeof rate, "as fast as possible");
    if (cfg->mode == MODE_PING || cfg->mode == MODE_ECHO) {
        print_ping_text(cfg, rate, s);
        return;
    }
    printf("face-bench: %d session%s x %zu frames, %s mode, %s, %s\n", cfg->sessions, cfg->sessions == 1 ? "" : "s",
           cfg->frames, cfg->mode == MODE_LIVE ? "live-stream" : "video", rate,
           cfg->landmarker ? "Face Landmarker: mesh + blendshapes + matrix"
           : cfg->landmarks ? "landmarks + mesh + ML Kit outputs" : "detection only");
    if (cfg->raw.bytes)
        printf("source:     one %ux%u %s frame from %s%s\n", cfg->raw.width, cfg->raw.height,
               cfg->raw.format == FW_PIXEL_NV12 ? "NV12" : "RGB", cfg->raw.path,
               cfg->shared_memory ? ", in shared memory" : "");
    else if (cfg->dir)
        printf("source:     %zu JPEG files from %s (%dx%d)\n", frames->count, cfg->dir, frames->width,
               frames->height);
    else
        printf("source:     %zu synthetic %dx%d JPEG frames panned across %s\n", frames->count, frames->width,
               frames->height, strrchr(cfg->source, '/') ? strrchr(cfg->source, '/') + 1 : cfg->source);
    printf("frames:     %zu sent, %zu answered, %zu dropped, %zu errors; %.2f faces per answer\n", s->sent,
           s->answered, s->dropped, s->errors, s->answered ? (double)s->faces / (double)s->answered : 0.0);
    printf("latency:    p50 %.2f  p90 %.2f  p99 %.2f  max %.2f ms (round trip, client clock)\n", s->p50, s->p90,
           s->p99, s->max);
    printf("worker:    ");
    for (int k = 0; k < STAGES; k++)
        printf(" %s %.2f", stage_names[k], s->stage_p50[k]);
    printf(" ms (medians)\n");
    printf("transport:  %.2f ms (median of round trip minus worker total)\n", s->overhead_p50);
    printf("throughput: %.1f frames/s over %.2f s; client peak RSS %ld KiB\n", s->throughput, s->seconds,
           s->max_rss_kib);
    if (s->first_error)
        printf("first error: %s\n", s->first_error);
}

/* Every answer's times, for joining with a subscriber's (subscriber.h). */
static int write_events(const char *path, const struct run *runs, int n)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "face-bench: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    for (int i = 0; i < n; i++)
        for (size_t k = 0; k < runs[i].logged; k++)
            fprintf(f, "%lld %s %lld %lld\n", (long long)runs[i].log[k].timestamp_ms, runs[i].log[k].kind,
                    (long long)runs[i].log[k].sent_unix_ns, (long long)runs[i].log[k].arrived_unix_ns);
    if (fclose(f) != 0) {
        fprintf(stderr, "face-bench: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    return 0;
}

static void free_runs(struct run *runs, int n)
{
    for (int i = 0; runs && i < n; i++) {
        free(runs[i].offsets);
        free(runs[i].sent_unix_ns);
        free(runs[i].log);
        free(runs[i].sent_ns);
        free(runs[i].latency_ns);
        free(runs[i].overhead_ns);
        for (int k = 0; k < STAGES; k++)
            free(runs[i].stage_ns[k]);
    }
    free(runs);
}

/* Runs every session at once and prints the summary; returns the exit
 * status: 0 when every frame went without error. */
static int run_sessions(const struct config *cfg, const bench_frames *frames)
{
    struct run *runs = calloc((size_t)cfg->sessions, sizeof *runs);
    pthread_t *threads = calloc((size_t)cfg->sessions, sizeof *threads);
    int64_t *timestamps = malloc(cfg->frames * sizeof *timestamps);
    pthread_barrier_t start;
    bool ok = runs && threads && timestamps;
    for (int i = 0; ok && i < cfg->sessions; i++) {
        struct run *r = &runs[i];
        r->cfg = cfg;
        r->frames = frames;
        r->start = &start;
        r->timestamps = timestamps;
        r->sent_ns = malloc(cfg->frames * sizeof *r->sent_ns);
        r->latency_ns = malloc(cfg->frames * sizeof *r->latency_ns);
        r->overhead_ns = malloc(cfg->frames * sizeof *r->overhead_ns);
        ok = r->sent_ns && r->latency_ns && r->overhead_ns;
        if (cfg->events) {
            r->sent_unix_ns = malloc(cfg->frames * sizeof *r->sent_unix_ns);
            r->log = malloc(cfg->frames * sizeof *r->log);
            ok = ok && r->sent_unix_ns && r->log;
        }
        for (int k = 0; k < STAGES; k++) {
            r->stage_ns[k] = malloc(cfg->frames * sizeof *r->stage_ns[k]);
            ok = ok && r->stage_ns[k];
        }
    }
    int status = 1;
    if (!ok || pthread_barrier_init(&start, NULL, (unsigned)cfg->sessions) != 0) {
        fprintf(stderr, "face-bench: out of memory for %zu frames x %d sessions\n", cfg->frames, cfg->sessions);
        goto out;
    }
    /* Camera-like timestamps that strictly increase even above 1000 fps. */
    double step_ms = cfg->fps > 0 ? 1000.0 / cfg->fps : 1000.0 / 30;
    for (size_t i = 0; i < cfg->frames; i++) {
        timestamps[i] = (int64_t)llround((double)i * step_ms);
        if (i > 0 && timestamps[i] <= timestamps[i - 1])
            timestamps[i] = timestamps[i - 1] + 1;
    }
    for (int i = 0; i < cfg->sessions; i++) {
        if (pthread_create(&threads[i], NULL, session_thread, &runs[i]) != 0) {
            /* The threads already started wait at a barrier that can no
             * longer open, and nothing has been measured. */
            fprintf(stderr, "face-bench: cannot start %d threads\n", cfg->sessions);
            exit(1);
        }
    }
    for (int i = 0; i < cfg->sessions; i++)
        pthread_join(threads[i], NULL);
    pthread_barrier_destroy(&start);
    struct summary s;
    if (summarize(runs, cfg->sessions, &s) != 0) {
        fprintf(stderr, "face-bench: out of memory\n");
        goto out;
    }
    if (cfg->json)
        print_json(cfg, frames, &s);
    else
        print_text(cfg, frames, &s);
    status = s.errors == 0 && s.answered > 0 ? 0 : 1;
    if (cfg->samples && write_samples(cfg->samples, runs, cfg->sessions) != 0)
        status = 1;
    if (cfg->events && write_events(cfg->events, runs, cfg->sessions) != 0)
        status = 1;
out:
    free_runs(runs, cfg->sessions);
    free(threads);
    free(timestamps);
    return status;
}

/* ------------------------------------------------------------------------
 * Set-up
 * ------------------------------------------------------------------------ */

static void usage(FILE *to, const char *argv0)
{
    fprintf(to,
            "usage: %s [-s SOCKET] [-c SESSIONS] [-m video|live|ping|echo] [-r FPS] [-n FRAMES] [-d DIR]\n"
            "          [--source JPEG] [--landmarks | --landmarker] [--num-faces N] [--json] [--samples FILE]\n"
            "          [--raw FILE --raw-format rgb|nv12 --raw-size WxH] [--shared-memory]\n"
            "          [--name NAME] [--wait-subscribers N] [--events FILE]\n"
            "\n"
            "  -s SOCKET     face-worker's socket (default: $FACEWORKER_SOCKET, else\n"
            "                $XDG_RUNTIME_DIR/faceworker.sock, else /tmp/faceworker-<euid>.sock)\n"
            "  -c SESSIONS   concurrent sessions, each on its own connection and thread (1)\n"
            "  -m MODE       video: each session sends a frame and waits for its result;\n"
            "                subscribe: follows the session --name of another process until\n"
            "                it closes, recording when each event arrives (no frames);\n"
            "                live: sends on schedule, never waits, the worker may drop (video)\n"
            "                ping: each connection sends empty Pings, one at a time, and\n"
            "                times their round trips (no session, no frames)\n"
            "                echo: the same round trips to a bare echo process of its own\n"
            "                (no worker): the kernel's and the machine's share of a Ping\n"
            "  -r FPS        frames per second per session; 0 sends as fast as possible\n"
            "                (default: 0 in video mode, 30 in live mode)\n"
            "  -n FRAMES     frames (or Pings) per session (300)\n"
            "  -d DIR        send the .jpg/.jpeg files of DIR, in name order, cycling\n"
            "  --source JPEG without -d: the photograph the synthetic 640x360 frames are cut\n"
            "                from (default: the repository's " FIXTURE ")\n"
            "  --landmarks   run the whole pipeline: face mesh, ML Kit landmarks, contours,\n"
            "                classification (default: detection and tracking only)\n"
            "  --landmarker  run MediaPipe Tasks' Face Landmarker: its 478 points, 52\n"
            "                blendshapes and transformation matrix, no ML Kit outputs\n"
            "  --num-faces N most faces reported per frame (1)\n"
            "  --json        print one JSON object instead of text\n"
            "  --samples FILE write every round trip, in microseconds, one per line\n"
            "  --busy-poll US spin up to US microseconds on each wait for an answer\n"
            "                before sleeping (fw_set_busy_poll; default 0)\n"
            "  --raw FILE    send this one raw frame (tightly packed) instead of JPEG files,\n"
            "                laid out as --raw-format (rgb or nv12) and --raw-size (WxH) say\n"
            "  --shared-memory  write the frames once into a shared-memory buffer of each\n"
            "                session's connection and send regions of it, not bytes\n"
            "  --name NAME   open the session under this name (-c 1), or follow it (subscribe)\n"
            "  --wait-subscribers N  after opening, wait until the worker counts N\n"
            "                subscriptions before sending\n"
            "  --events FILE write a line per answer: TIMESTAMP_MS KIND SENT_UNIX_NS\n"
            "                ARRIVED_UNIX_NS (CLOCK_REALTIME, comparable across processes)\n",
            argv0);
}

static bool parse_count(const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

/* The fixture, from the working directory or from a build tree inside the
 * repository (clients/c/build/face-bench). */
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

/* The frames to send: -d's files, or the synthetic sequence. When no
 * --source was given, the fixture's path is kept in found, which must
 * outlive cfg. Returns 0, or -1 after saying why on stderr. */
static int load_frames(struct config *cfg, bench_frames *frames, char *found, size_t found_size)
{
    char err[512];
    if (cfg->dir) {
        if (frames_from_directory(cfg->dir, frames, err, sizeof err) == 0)
            return 0;
    } else {
        if (!cfg->source && !(cfg->source = find_fixture(found, found_size))) {
            fprintf(stderr, "face-bench: cannot find %s; name a photograph with --source or frames with -d\n",
                    FIXTURE);
            return -1;
        }
        if (frames_synthesize(cfg->source, SYNTHETIC_FRAMES, frames, err, sizeof err) == 0)
            return 0;
    }
    fprintf(stderr, "face-bench: %s\n", err);
    return -1;
}

/* Reads --raw's file, which must hold exactly the layout's bytes. Returns
 * 0, or -1 after saying why on stderr. */
static int load_raw(struct raw_input *raw)
{
    size_t w = raw->width, h = raw->height;
    size_t expected = raw->format == FW_PIXEL_NV12 ? w * h + 2 * ((w + 1) / 2) * ((h + 1) / 2) : w * h * 3;
    FILE *f = fopen(raw->path, "rb");
    if (!f) {
        fprintf(stderr, "face-bench: cannot open %s: %s\n", raw->path, strerror(errno));
        return -1;
    }
    raw->bytes = malloc(expected + 1);
    size_t got = raw->bytes ? fread(raw->bytes, 1, expected + 1, f) : 0;
    fclose(f);
    if (got != expected) {
        fprintf(stderr, "face-bench: %s holds %s%zu bytes; a tightly packed %zux%zu %s frame has %zu\n", raw->path,
                got > expected ? "more than " : "", got > expected ? expected : got, w, h,
                raw->format == FW_PIXEL_NV12 ? "NV12" : "RGB", expected);
        free(raw->bytes);
        raw->bytes = NULL;
        return -1;
    }
    raw->len = expected;
    return 0;
}

int main(int argc, char **argv)
{
    struct config cfg = {.sessions = 1, .fps = -1, .frames = 300, .num_faces = 1};
    static const struct option long_options[] = {
        {"landmarks", no_argument, NULL, 'L'}, {"json", no_argument, NULL, 'J'},
        {"source", required_argument, NULL, 'S'}, {"num-faces", required_argument, NULL, 'F'},
        {"samples", required_argument, NULL, 'W'}, {"busy-poll", required_argument, NULL, 'B'}, {"help", no_argument, NULL, 'h'},
        {"raw", required_argument, NULL, 'R'}, {"raw-format", required_argument, NULL, 'X'},
        {"raw-size", required_argument, NULL, 'Z'}, {"shared-memory", no_argument, NULL, 'M'},
        {"name", required_argument, NULL, 'N'}, {"wait-subscribers", required_argument, NULL, 'V'},
        {"events", required_argument, NULL, 'E'}, {"landmarker", no_argument, NULL, 'T'},
        {NULL, 0, NULL, 0},
    };
    int opt;
    long v;
    while ((opt = getopt_long(argc, argv, "s:c:m:r:n:d:h", long_options, NULL)) != -1) {
        switch (opt) {
        case 's': cfg.socket_path = optarg; break;
        case 'c':
            if (!parse_count(optarg, 1, 1024, &v)) {
                fprintf(stderr, "face-bench: -c takes 1 to 1024 sessions\n");
                return 2;
            }
            cfg.sessions = (int)v;
            break;
        case 'm':
            if (strcmp(optarg, "video") == 0) {
                cfg.mode = MODE_VIDEO;
            } else if (strcmp(optarg, "live") == 0) {
                cfg.mode = MODE_LIVE;
            } else if (strcmp(optarg, "ping") == 0) {
                cfg.mode = MODE_PING;
            } else if (strcmp(optarg, "echo") == 0) {
                cfg.mode = MODE_ECHO;
            } else if (strcmp(optarg, "subscribe") == 0) {
                cfg.mode = MODE_SUBSCRIBE;
            } else {
                fprintf(stderr, "face-bench: -m takes video, live, ping, echo or subscribe\n");
                return 2;
            }
            break;
        case 'r': {
            char *end;
            cfg.fps = strtod(optarg, &end);
            if (end == optarg || *end || !(cfg.fps >= 0 && cfg.fps <= 10000)) {
                fprintf(stderr, "face-bench: -r takes 0 to 10000 frames per second\n");
                return 2;
            }
            break;
        }
        case 'n':
            if (!parse_count(optarg, 1, 10000000, &v)) {
                fprintf(stderr, "face-bench: -n takes 1 to 10000000 frames\n");
                return 2;
            }
            cfg.frames = (size_t)v;
            break;
        case 'd': cfg.dir = optarg; break;
        case 'S': cfg.source = optarg; break;
        case 'L': cfg.landmarks = true; break;
        case 'T': cfg.landmarker = true; break;
        case 'F':
            if (!parse_count(optarg, 1, 1000, &v)) {
                fprintf(stderr, "face-bench: --num-faces takes 1 to 1000\n");
                return 2;
            }
            cfg.num_faces = (uint32_t)v;
            break;
        case 'J': cfg.json = true; break;
        case 'W': cfg.samples = optarg; break;
        case 'B':
            if (!parse_count(optarg, 0, FW_BUSY_POLL_MAX_US, &v)) {
                fprintf(stderr, "face-bench: --busy-poll takes 0 to %d microseconds\n", FW_BUSY_POLL_MAX_US);
                return 2;
            }
            cfg.busy_poll_us = (int)v;
            break;
        case 'R': cfg.raw.path = optarg; break;
        case 'X':
            if (strcmp(optarg, "rgb") == 0) {
                cfg.raw.format = FW_PIXEL_RGB;
            } else if (strcmp(optarg, "nv12") == 0) {
                cfg.raw.format = FW_PIXEL_NV12;
            } else {
                fprintf(stderr, "face-bench: --raw-format takes rgb or nv12\n");
                return 2;
            }
            break;
        case 'Z': {
            unsigned w, h;
            char tail;
            if (sscanf(optarg, "%ux%u%c", &w, &h, &tail) != 2 || w < 1 || h < 1 || w > 16384 || h > 16384) {
                fprintf(stderr, "face-bench: --raw-size takes WxH, each 1 to 16384\n");
                return 2;
            }
            cfg.raw.width = w;
            cfg.raw.height = h;
            break;
        }
        case 'M': cfg.shared_memory = true; break;
        case 'N': cfg.name = optarg; break;
        case 'V':
            if (!parse_count(optarg, 1, 1024, &v)) {
                fprintf(stderr, "face-bench: --wait-subscribers takes 1 to 1024\n");
                return 2;
            }
            cfg.wait_subscribers = (int)v;
            break;
        case 'E': cfg.events = optarg; break;
        case 'h': usage(stdout, argv[0]); return 0;
        default: usage(stderr, argv[0]); return 2;
        }
    }
    if (optind != argc) {
        usage(stderr, argv[0]);
        return 2;
    }
    if (cfg.fps < 0)
        cfg.fps = cfg.mode == MODE_LIVE ? 30 : 0;
    if (cfg.mode == MODE_SUBSCRIBE) {
        if (!cfg.name) {
            fprintf(stderr, "face-bench: -m subscribe needs --name\n");
            return 2;
        }
        return run_subscriber(cfg.socket_path, cfg.name, RENDEZVOUS_S, cfg.events, cfg.json);
    }
    if (cfg.landmarks && cfg.landmarker) {
        fprintf(stderr, "face-bench: --landmarks and --landmarker are two workloads: give one\n");
        return 2;
    }
    if (cfg.name && cfg.sessions != 1) {
        fprintf(stderr, "face-bench: --name names one session: use it with -c 1\n");
        return 2;
    }
    if (cfg.raw.path && (!cfg.raw.format || !cfg.raw.width)) {
        fprintf(stderr, "face-bench: --raw needs --raw-format and --raw-size\n");
        return 2;
    }

    bench_frames frames = {0};
    char fixture[PATH_MAX + 64];
    bool sends_frames = cfg.mode == MODE_VIDEO || cfg.mode == MODE_LIVE;
    if (sends_frames && cfg.raw.path) {
        if (load_raw(&cfg.raw) != 0)
            return 1;
        frames.width = (int)cfg.raw.width;
        frames.height = (int)cfg.raw.height;
        frames.count = 1;
    } else if (sends_frames && load_frames(&cfg, &frames, fixture, sizeof fixture) != 0) {
        return 1;
    }

    int status = run_sessions(&cfg, &frames);
    if (!cfg.raw.bytes) /* a raw frame stands in for the list, which holds nothing */
        frames_free(&frames);
    free(cfg.raw.bytes);
    return status;
}
