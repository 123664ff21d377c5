/*
 * The steps every face-bench mode takes: the clock, pacing, recording an
 * answer, the frame to send.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "run.h"
#include "subscriber.h"

const char *const stage_names[STAGES] = {"queued", "decode", "detect", "landmarks", "total"};
const char *const mode_names[] = {"video", "live", "ping", "echo", "subscribe"};

int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void sleep_until(int64_t t_ns)
{
    struct timespec ts = {.tv_sec = t_ns / 1000000000, .tv_nsec = t_ns % 1000000000};
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
        ;
}

__attribute__((format(printf, 2, 3))) void record_error(struct run *r, const char *fmt, ...)
{
    r->errors++;
    if (r->first_error[0])
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->first_error, sizeof r->first_error, fmt, ap);
    va_end(ap);
}

bool connection_gone(int rc)
{
    return rc == FW_ERR_IO || rc == FW_ERR_CLOSED || rc == FW_ERR_PROTOCOL;
}

void record_result(struct run *r, const fw_result *result, int64_t sent, int64_t received)
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
void record_ping(struct run *r, int64_t sent, int64_t received)
{
    size_t i = r->answered++;
    r->latency_ns[i] = r->overhead_ns[i] = (uint64_t)(received - sent);
    for (int k = 0; k < STAGES; k++)
        r->stage_ns[k][i] = 0;
    r->last_answer_ns = received;
}

/* Frame i as the session sends it: its bytes inline, or a region of the
 * session's buffer. */
fw_frame frame_for(const struct run *r, size_t i)
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

void log_answer(struct run *r, size_t i, const char *kind)
{
    if (r->log)
        r->log[r->logged++] = (struct answer_time){r->timestamps[i], kind, r->sent_unix_ns[i], unix_ns()};
}

/* Writes every frame once into one buffer of the session's client. */
int place_frames(struct run *r, fw_client *c, fw_error *err)
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

int64_t period_ns(const struct config *cfg)
{
    return cfg->fps > 0 ? (int64_t)llround(1e9 / cfg->fps) : 0;
}

/* Calls step(r, i, ctx) for each frame in turn, on schedule when -r gives
 * a rate, as fast as it returns otherwise; stops when step returns false
 * (the connection is gone). */
void run_paced(struct run *r, bool (*step)(struct run *, size_t, void *), void *ctx)
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
