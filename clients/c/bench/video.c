/*
 * Video mode: one frame, then its result, as MediaPipe's video mode runs;
 * what P1 and P2 time.
 */
#include "run.h"
#include "subscriber.h"

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

void run_video(struct run *r, fw_session *s)
{
    run_paced(r, video_step, s);
}
