/*
 * face-bench's report: percentiles over every session's answers, the
 * worker's stage medians, throughput, peak memory; text or JSON.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

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
int summarize(struct run *runs, int n, struct summary *out)
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
int write_samples(const char *path, const struct run *runs, int n)
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

void print_json(const struct config *cfg, const bench_frames *frames, const struct summary *s)
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

void print_text(const struct config *cfg, const bench_frames *frames, const struct summary *s)
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
int write_events(const char *path, const struct run *runs, int n)
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