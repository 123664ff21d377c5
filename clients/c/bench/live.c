/*
 * Live-stream mode: frames sent on schedule without waiting, answers taken
 * as they come; the worker may drop a frame that a newer one replaced.
 */
#include <stdlib.h>

#include "run.h"
#include "subscriber.h"

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

void run_live(struct run *r, fw_session *s)
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
