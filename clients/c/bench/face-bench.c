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
 *
 * One file per measure: video.c (a frame, then its result), live.c (frames
 * on schedule, answers as they come), floor.c (empty Pings, and the bare
 * echo process), each on run.c's shared steps; report.c sums them up. This
 * file holds the command line and the sessions' threads.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "faceworker.h"
#include "frames.h"
#include "report.h"
#include "run.h"
#include "subscriber.h"

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
            run_video(r, s);
    } else if (c && cfg->mode == MODE_PING) {
        fw_set_timeout(c, ANSWER_TIMEOUT_MS);
        run_ping(r, c);
    }
    /* Closed, not left to the connection's end, so that its subscribers
     * hear that the session closed rather than that its producer left. */
    fw_close_session(s, NULL);
    fw_unregister_buffer(r->buffer, NULL);
    fw_close(c);
    return NULL;
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
