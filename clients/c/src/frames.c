/*
 * Frames: building a frame's request, the blocking fw_process(), and
 * fw_send() with fw_poll(), which take answers as they come.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* What may answer a frame, for the message when something else does. */
#define FRAME_ANSWERS "frame_result, frame_dropped or error"

/* The request for a frame; it points into the caller's pixels, which are
 * only read while packing. */
struct frame_request {
    ClientMessage message;
    Faceworker__V1__ProcessFrameRequest process;
    Faceworker__V1__Frame frame;
    Faceworker__V1__RawImage raw;
    Faceworker__V1__BufferRegion region;
};

/* The wire form of a region of one of the session's client's buffers. */
static int build_region(const fw_session *s, const fw_region *from, Faceworker__V1__BufferRegion *to, fw_error *err)
{
    if (from->buffer->client != s->client)
        return fwi_set_error(err, FW_ERR_USAGE, 0,
                             "the frame names buffer %llu of another client; a frame may name only buffers its "
                             "session's client registered",
                             (unsigned long long)from->buffer->id);
    faceworker__v1__buffer_region__init(to);
    to->buffer_id = from->buffer->id;
    to->offset = from->offset;
    to->length = from->length;
    return FW_OK;
}

static int build_frame(const fw_session *s, const fw_frame *f, struct frame_request *r, fw_error *err)
{
    if (!f)
        return fwi_set_error(err, FW_ERR_USAGE, 0, "no frame");
    if (FWI_FRAME_COVERED(f->size) == 0)
        return fwi_set_error(err, FW_ERR_USAGE, 0,
                             "fw_frame.size is %zu, which no version has; set it to sizeof(fw_frame), or 0", f->size);
    int sources = (f->jpeg != NULL) + (f->pixels != NULL) + (f->jpeg_region.buffer != NULL) +
                  (f->pixels_region.buffer != NULL);
    if (sources != 1)
        return fwi_set_error(err, FW_ERR_USAGE, 0,
                             "a frame needs exactly one of jpeg, pixels, jpeg_region and pixels_region; it has %d",
                             sources);
    faceworker__v1__client_message__init(&r->message);
    faceworker__v1__process_frame_request__init(&r->process);
    faceworker__v1__frame__init(&r->frame);
    faceworker__v1__raw_image__init(&r->raw);
    if (f->jpeg) {
        r->frame.image_case = FACEWORKER__V1__FRAME__IMAGE_JPEG;
        r->frame.jpeg.data = (uint8_t *)(uintptr_t)f->jpeg;
        r->frame.jpeg.len = f->jpeg_len;
    } else if (f->jpeg_region.buffer) {
        int rc = build_region(s, &f->jpeg_region, &r->region, err);
        if (rc != FW_OK)
            return rc;
        r->frame.image_case = FACEWORKER__V1__FRAME__IMAGE_SHARED_JPEG;
        r->frame.shared_jpeg = &r->region;
    } else {
        r->raw.format = (Faceworker__V1__PixelFormat)f->format;
        r->raw.width = f->width;
        r->raw.height = f->height;
        r->raw.row_stride = f->row_stride;
        if (f->pixels) {
            r->raw.data.data = (uint8_t *)(uintptr_t)f->pixels;
            r->raw.data.len = f->pixels_len;
        } else {
            int rc = build_region(s, &f->pixels_region, &r->region, err);
            if (rc != FW_OK)
                return rc;
            r->raw.region = &r->region;
        }
        r->frame.image_case = FACEWORKER__V1__FRAME__IMAGE_RAW;
        r->frame.raw = &r->raw;
    }
    r->frame.orientation = (Faceworker__V1__Orientation)f->orientation;
    r->frame.timestamp_ms = f->timestamp_ms;
    r->process.session_id = s->id;
    r->process.frame = &r->frame;
    r->message.kind_case = FACEWORKER__V1__CLIENT_MESSAGE__KIND_PROCESS_FRAME;
    r->message.process_frame = &r->process;
    return FW_OK;
}

static const char *drop_reason_text(Faceworker__V1__FrameDropped__Reason reason)
{
    switch (reason) {
    case FACEWORKER__V1__FRAME_DROPPED__REASON__REASON_REPLACED:
        return "replaced by a newer frame";
    case FACEWORKER__V1__FRAME_DROPPED__REASON__REASON_SESSION_CLOSED:
        return "session closed";
    case FACEWORKER__V1__FRAME_DROPPED__REASON__REASON_SESSION_RESET:
        return "session reset";
    case FACEWORKER__V1__FRAME_DROPPED__REASON__REASON_WORKER_RESTARTED:
        return "worker restarted";
    default:
        return "no reason given";
    }
}

int fw_process(fw_session *s, const fw_frame *frame, fw_result **out, fw_error *err)
{
    if (!out)
        return fwi_set_error(err, FW_ERR_USAGE, 0, "fw_process: no place for the result");
    *out = NULL;
    if (!s)
        return fwi_set_error(err, FW_ERR_USAGE, 0, "fw_process: no session");
    if (s->options.running_mode == FW_MODE_LIVE_STREAM)
        return fwi_set_error(err, FW_ERR_USAGE, 0,
                             "fw_process: a LIVE_STREAM session may drop frames; use fw_send and fw_poll");
    int rc = fwi_prepare(s->client, err);
    if (rc != FW_OK)
        return rc;
    struct frame_request r;
    rc = build_frame(s, frame, &r, err);
    if (rc != FW_OK)
        return rc;
    WorkerMessage *answer;
    rc = fwi_call_worker(s->client, &r.message, FACEWORKER__V1__WORKER_MESSAGE__KIND__NOT_SET, &answer, err);
    if (rc != FW_OK)
        return rc;
    if (answer->kind_case == FACEWORKER__V1__WORKER_MESSAGE__KIND_FRAME_RESULT) {
        *out = fwi_hand_out_result(s, answer);
        return FW_OK;
    }
    if (answer->kind_case == FACEWORKER__V1__WORKER_MESSAGE__KIND_FRAME_DROPPED) {
        rc = fwi_set_error(err, FW_ERR_DROPPED, 0, "face-worker dropped frame %lld: %s",
                           (long long)frame->timestamp_ms, drop_reason_text(answer->frame_dropped->reason));
        faceworker__v1__worker_message__free_unpacked(answer, NULL);
        return rc;
    }
    return fwi_unexpected_answer(s->client, answer, FRAME_ANSWERS, err);
}

int fw_process_jpeg(fw_session *s, const uint8_t *jpeg, size_t len, int64_t timestamp_ms, fw_result **out,
                    fw_error *err)
{
    fw_frame f = {.jpeg = jpeg, .jpeg_len = len, .timestamp_ms = timestamp_ms};
    return fw_process(s, &f, out, err);
}

int fwi_queue_frame(fw_session *s, const fw_frame *frame, fw_error *err)
{
    fw_client *c = s->client;
    struct frame_request r;
    int rc = build_frame(s, frame, &r, err);
    if (rc != FW_OK)
        return rc;
    /* Allocated before sending, so that routing the answer never fails. */
    struct call *call = calloc(1, sizeof *call);
    if (!call)
        return fwi_set_error(err, FW_ERR_NOMEM, 0, "out of memory for a frame's call");
    r.message.call_id = c->next_call_id++;
    rc = fwi_writer_append(&c->writer, &r.message, err);
    if (rc != FW_OK) {
        free(call);
        return rc;
    }
    call->call_id = r.message.call_id;
    call->session = s;
    call->timestamp_ms = frame->timestamp_ms;
    call->next = c->in_flight;
    c->in_flight = call;
    s->pending++;
    return FW_OK;
}

int fw_send(fw_session *s, const fw_frame *frame, fw_error *err)
{
    if (!s)
        return fwi_set_error(err, FW_ERR_USAGE, 0, "fw_send: no session");
    fw_client *c = s->client;
    if (c->async)
        return fwi_send_nonblock(s, frame, err);
    int rc = fwi_prepare(c, err);
    if (rc != FW_OK)
        return rc;
    size_t keep = fwi_writer_pending(&c->writer);
    rc = fwi_queue_frame(s, frame, err);
    if (rc != FW_OK)
        return rc;
    rc = fwi_write_queued(c, keep, fwi_deadline_after(c->timeout_ms), err);
    /* Under auto-reconnect a frame the connection broke under is in flight
     * like any other: the reconnect reports it dropped. */
    bool cut = c->auto_reconnect && (rc == FW_ERR_CLOSED || rc == FW_ERR_IO);
    if (rc != FW_OK && !cut) {
        /* Not written at all (a timeout): it never left. */
        struct call *call = c->in_flight;
        c->in_flight = call->next;
        fwi_free_call(call);
        s->pending--;
        return rc;
    }
    fwi_clear_error(err);
    return FW_OK;
}

int fw_send_jpeg(fw_session *s, const uint8_t *jpeg, size_t len, int64_t timestamp_ms, fw_error *err)
{
    fw_frame f = {.jpeg = jpeg, .jpeg_len = len, .timestamp_ms = timestamp_ms};
    return fw_send(s, &f, err);
}

/* Hands the oldest queued answer of s to the caller as an event. */
static int pop_event(fw_session *s, fw_event *ev, fw_error *err)
{
    struct call *call = s->events_head;
    s->events_head = call->next;
    if (!s->events_head)
        s->events_tail = NULL;
    s->pending--;
    if (s->notice_after > 0)
        s->notice_after--;
    WorkerMessage *m = call->answer;
    ev->timestamp_ms = call->timestamp_ms;
    switch (m->kind_case) {
    case FACEWORKER__V1__WORKER_MESSAGE__KIND_FRAME_RESULT:
        ev->type = FW_EVENT_RESULT;
        ev->result = fwi_hand_out_result(s, m);
        call->answer = NULL;
        break;
    case FACEWORKER__V1__WORKER_MESSAGE__KIND_FRAME_DROPPED:
        ev->type = FW_EVENT_DROPPED;
        ev->drop_reason = (fw_drop_reason)m->frame_dropped->reason;
        break;
    case FACEWORKER__V1__WORKER_MESSAGE__KIND_ERROR:
        if ((s->client->restart_drops || s->client->auto_reconnect) && m->error &&
            m->error->code == FACEWORKER__V1__STATUS__CODE__UNAVAILABLE) {
            /* A stopping worker refused it: to an application that reconnects, the restart dropped it. */
            ev->type = FW_EVENT_DROPPED;
            ev->drop_reason = FW_DROP_WORKER_RESTARTED;
            break;
        }
        ev->type = FW_EVENT_ERROR;
        fwi_status_error(&ev->error, m->error);
        break;
    default:
        call->answer = NULL;
        fwi_free_call(call);
        ev->type = FW_EVENT_NONE;
        return fwi_unexpected_answer(s->client, m, FRAME_ANSWERS, err);
    }
    fwi_free_call(call);
    fwi_clear_error(err);
    return FW_OK;
}

void fwi_clear_event(fw_event *ev)
{
    memset(ev, 0, sizeof *ev);
    ev->size = (uint32_t)sizeof *ev;
}

bool fwi_session_event(fw_session *s, fw_event *ev, int *rc, fw_error *err)
{
    *rc = FW_OK;
    if (s->notice_due && s->notice_after == 0) {
        s->notice_due = false;
        fwi_clear_event(ev);
        ev->type = FW_EVENT_RESTARTED;
        fwi_clear_error(err);
        return true;
    }
    if (!s->events_head)
        return false;
    fwi_clear_event(ev);
    *rc = pop_event(s, ev, err);
    return true;
}

int fw_poll(fw_session *s, int timeout_ms, fw_event *ev, fw_error *err)
{
    if (!s || !ev)
        return fwi_set_error(err, FW_ERR_USAGE, 0, "fw_poll: no session or no event");
    fwi_clear_event(ev);
    fw_client *c = s->client;
    int rc = fwi_refuse_async(c, err);
    if (rc != FW_OK)
        return rc;
    int64_t deadline = fwi_deadline_after(timeout_ms);
    bool idle = false;
    for (;;) {
        if (fwi_session_event(s, ev, &rc, err))
            return rc;
        if (idle)
            return FW_OK;
        rc = fwi_recover(c, err);
        if (rc != FW_OK)
            return rc;
        rc = fwi_route_next(c, deadline, &idle, err);
        if (rc != FW_OK && !fwi_auto_recovers(c))
            return rc;
    }
}
