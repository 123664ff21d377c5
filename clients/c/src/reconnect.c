/*
 * Connecting again after a worker restart, when the application asks
 * (fw_reconnect) or by itself before a call (auto-reconnect): what the old
 * connection still holds is read, the frames it leaves unanswered become
 * drop notices, then attempts with a doubling wait until one re-opens every
 * session, re-registers every buffer and subscribes every subscription
 * again on a fresh connection, or the deadline passes. The application
 * hears of it once: FW_EVENT_RESTARTED on each session, FW_SUB_RESTARTED on
 * each subscription.
 */
#include "internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define DEFAULT_INITIAL_DELAY_MS 50
#define DEFAULT_MAX_DELAY_MS 500
#define DEFAULT_DEADLINE_MS 30000

void fw_reconnect_options_init(fw_reconnect_options *o)
{
    o->size = sizeof *o;
    o->initial_delay_ms = DEFAULT_INITIAL_DELAY_MS;
    o->max_delay_ms = DEFAULT_MAX_DELAY_MS;
    o->deadline_ms = DEFAULT_DEADLINE_MS;
}

int64_t fwi_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void sleep_ms(int ms)
{
    struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

/* The answer the worker would have sent had it dropped the frame itself. */
static WorkerMessage *restarted_drop(uint64_t session_id, int64_t timestamp_ms)
{
    WorkerMessage *m = malloc(sizeof *m);
    Faceworker__V1__FrameDropped *d = malloc(sizeof *d);
    if (!m || !d) {
        free(m);
        free(d);
        return NULL;
    }
    faceworker__v1__worker_message__init(m);
    faceworker__v1__frame_dropped__init(d);
    d->session_id = session_id;
    d->timestamp_ms = timestamp_ms;
    d->reason = FACEWORKER__V1__FRAME_DROPPED__REASON__REASON_WORKER_RESTARTED;
    m->kind_case = FACEWORKER__V1__WORKER_MESSAGE__KIND_FRAME_DROPPED;
    m->frame_dropped = d;
    return m;
}

/* Queues a WORKER_RESTARTED drop for every frame in flight, after the
 * answers its session already holds; calls given up on are forgotten. */
static int settle_in_flight(fw_client *c, fw_error *err)
{
    /* The list holds the newest call first; the notices go out in sending order. */
    struct call *oldest_first = NULL;
    while (c->in_flight) {
        struct call *call = c->in_flight;
        c->in_flight = call->next;
        call->next = oldest_first;
        oldest_first = call;
    }
    c->in_flight = oldest_first;
    while (c->in_flight) {
        struct call *call = c->in_flight;
        fw_session *s = call->session;
        if (s) {
            call->answer = restarted_drop(s->id, call->timestamp_ms);
            if (!call->answer)
                return fwi_set_error(err, FW_ERR_NOMEM, 0, "out of memory for a frame's drop notice");
        }
        c->in_flight = call->next;
        call->next = NULL;
        if (!s) {
            fwi_free_call(call);
            continue;
        }
        if (s->events_tail)
            s->events_tail->next = call;
        else
            s->events_head = call;
        s->events_tail = call;
    }
    /* A subscription given up on dies with the old connection. */
    for (fw_subscription **link = &c->subscriptions; *link;) {
        fw_subscription *sub = *link;
        if (sub->abandoned) {
            *link = sub->next;
            fwi_free_subscription(sub);
        } else {
            link = &sub->next;
        }
    }
    return FW_OK;
}

/* Reads what the old connection still holds, so that answers that came
 * before the cut are answers rather than drops (a write that found the
 * connection closed leaves them unread). A stopping worker answers what it
 * read, then closes: it is waited for until `deadline`. A stream that broke
 * the protocol cannot be read on. */
static void salvage(fw_client *c, int64_t deadline)
{
    if (c->fd < 0 || c->broken.code == FW_ERR_PROTOCOL || c->broken.code == FW_ERR_NOMEM)
        return;
    if (!c->stopping)
        deadline = fwi_deadline_after(0);
    bool idle = false;
    while (!idle && fwi_route_next(c, deadline, &idle, NULL) == FW_OK)
        ;
}

void fwi_disconnect(fw_client *c)
{
    if (c->fd >= 0)
        close(c->fd);
    c->fd = -1;
    c->connecting = CONNECTED;
    fwi_reader_clear(&c->reader);
    fwi_writer_clear(&c->writer);
    fwi_free_calls(c->in_flight);
    c->in_flight = NULL;
    c->stopping = false;
    fwi_clear_error(&c->broken);
    fwi_clear_error(&c->farewell);
}

/* One attempt on a fresh connection: everything the client holds, again. */
static int attempt(fw_client *c, fw_error *err)
{
    fwi_disconnect(c);
    c->fd = fwi_open_socket(c->path, NULL, err);
    if (c->fd < 0)
        return err->code;
    int rc;
    for (fw_session *s = c->sessions; s; s = s->next)
        if ((rc = fwi_open_again(c, s, err)) != FW_OK)
            return rc;
    for (fw_buffer *b = c->buffers; b; b = b->next)
        if ((rc = fwi_register_again(c, b, err)) != FW_OK)
            return rc;
    for (fw_subscription *sub = c->subscriptions; sub; sub = sub->next)
        if (sub->restart_note && (rc = fwi_subscribe_again(c, sub, err)) != FW_OK)
            return rc;
    return FW_OK;
}

/* Whether a failed attempt may succeed later: no worker yet, the old one
 * still draining, a cut, a wait that ran out, or a subscribed name whose
 * producer has not come back yet. */
static bool retryable(int code)
{
    return code == FW_ERR_CONNECT || code == FW_ERR_IO || code == FW_ERR_CLOSED || code == FW_UNAVAILABLE ||
           code == FW_DEADLINE_EXCEEDED || code == FW_NOT_FOUND;
}

/* Drops what each subscription followed again got since its restart note,
 * and with `notes` the notes too. */
static void drop_since_restart(fw_client *c, bool notes)
{
    for (fw_subscription *sub = c->subscriptions; sub; sub = sub->next)
        if (sub->restart_note)
            fwi_drop_since_restart(sub, notes);
}

/* Queues FW_SUB_RESTARTED on every subscription to follow again (not ended,
 * or ended by the worker's stop) before the attempts: one note per outage,
 * however many attempts it takes, and allocated before any attempt can
 * succeed. */
static int note_subscriptions(fw_client *c, fw_error *err)
{
    for (fw_subscription *sub = c->subscriptions; sub; sub = sub->next) {
        if ((sub->ended && !sub->stopped) || fwi_note_restart(sub, err) == FW_OK)
            continue;
        drop_since_restart(c, true);
        return FW_ERR_NOMEM;
    }
    return FW_OK;
}

/* Every session was opened again: fw_poll() says so after the events it
 * already holds. A notice not yet taken stands for this outage too. */
static void tell_sessions(fw_client *c)
{
    for (fw_session *s = c->sessions; s; s = s->next) {
        if (s->notice_due)
            continue;
        s->notice_due = true;
        s->notice_after = s->pending; /* no frame is in flight: all are queued */
    }
}

int fwi_attempt_wait_ms(const fw_client *c, const fw_reconnect_options *options, int64_t deadline)
{
    /* Under socket activation a call waits in the socket's queue: it must not
     * outlast the deadline by much. It gets the first delay at least, so that
     * the last attempt, at the deadline, can still be answered, and a refusal
     * it gets is not hidden behind its own timeout. */
    int least = options->initial_delay_ms < 1 ? 1 : options->initial_delay_ms;
    int64_t left = deadline - fwi_now_ms();
    int wait = (int)(left > least ? left : least);
    return c->timeout_ms >= 0 && c->timeout_ms < wait ? c->timeout_ms : wait;
}

void fwi_reconnect_done(fw_client *c)
{
    for (fw_subscription *sub = c->subscriptions; sub; sub = sub->next)
        sub->restart_note = NULL;
    tell_sessions(c);
    c->gave_up = false;
}

int fwi_attempt_failed(fw_client *c, int rc, const fw_reconnect_options *options, int64_t deadline, bool *retry,
                       fw_error *err)
{
    *retry = false;
    drop_since_restart(c, false);
    if (!retryable(rc))
        return rc;
    if (deadline - fwi_now_ms() > 0) {
        *retry = true;
        return rc;
    }
    fw_error last = *err;
    return fwi_set_error(err, FW_UNAVAILABLE, last.sys_errno,
                         "no face-worker came back on %s within %d ms; the last attempt failed: %s", c->path,
                         options->deadline_ms, last.message);
}

/* One attempt, waiting for each answer. FW_OK once everything is back;
 * otherwise the error, with *retry set when another attempt may succeed. */
static int reconnect_attempt(fw_client *c, const fw_reconnect_options *options, int64_t deadline, bool *retry,
                             fw_error *err)
{
    int timeout = c->timeout_ms;
    bool reconnecting = c->reconnecting;
    c->timeout_ms = fwi_attempt_wait_ms(c, options, deadline);
    c->reconnecting = true;
    int rc = attempt(c, err);
    c->reconnecting = reconnecting;
    c->timeout_ms = timeout;
    if (rc == FW_OK) {
        *retry = false;
        fwi_reconnect_done(c);
        fwi_clear_error(err);
        return FW_OK;
    }
    return fwi_attempt_failed(c, rc, options, deadline, retry, err);
}

void fwi_reconnect_give_up(fw_client *c, fw_error *err)
{
    drop_since_restart(c, true);
    /* Every later call reports why, until the application reconnects again. */
    fw_error why = *err;
    fwi_disconnect(c);
    fwi_break_connection(c, NULL, why.code, why.sys_errno, "%s", why.message);
    c->gave_up = true;
    *err = why;
}

static int attempt_until_deadline(fw_client *c, const fw_reconnect_options *options, int64_t deadline,
                                  fw_error *err)
{
    int delay = options->initial_delay_ms < 1 ? 1 : options->initial_delay_ms;
    for (;;) {
        bool retry;
        int rc = reconnect_attempt(c, options, deadline, &retry, err);
        if (rc == FW_OK)
            return FW_OK;
        if (!retry) {
            fwi_reconnect_give_up(c, err);
            return err->code;
        }
        int64_t left = deadline - fwi_now_ms();
        sleep_ms(delay < left ? delay : (int)left);
        delay = delay * 2 < options->max_delay_ms ? delay * 2 : options->max_delay_ms;
    }
}

int fwi_reconnect_begin(fw_client *c, fw_error *err)
{
    int rc = settle_in_flight(c, err);
    if (rc == FW_OK)
        rc = note_subscriptions(c, err);
    return rc;
}

static int reconnect(fw_client *c, const fw_reconnect_options *options, fw_error *err)
{
    int deadline_ms = options->deadline_ms < 0 ? 0 : options->deadline_ms;
    int64_t deadline = fwi_now_ms() + deadline_ms;
    c->reconnecting = true;
    salvage(c, fwi_deadline_after(deadline_ms));
    int rc = fwi_reconnect_begin(c, err);
    if (rc == FW_OK)
        rc = attempt_until_deadline(c, options, deadline, err);
    c->reconnecting = false;
    return rc;
}

int fwi_take_reconnect_options(const fw_reconnect_options *in, fw_reconnect_options *out, fw_error *err)
{
    fw_reconnect_options_init(out);
    if (!in)
        return FW_OK;
    size_t covered = FWI_RECONNECT_COVERED(in->size);
    if (covered == 0)
        return fwi_set_error(err, FW_ERR_USAGE, 0,
                             "fw_reconnect_options.size is %zu, which no version has; fill the options with "
                             "fw_reconnect_options_init",
                             in->size);
    memcpy(out, in, covered);
    out->size = sizeof *out;
    return FW_OK;
}

int fw_reconnect(fw_client *c, const fw_reconnect_options *caller, fw_error *err)
{
    if (!c)
        return fwi_set_error(err, FW_ERR_USAGE, 0, "fw_reconnect: no client");
    fw_reconnect_options taken;
    int rc = fwi_take_reconnect_options(caller, &taken, err);
    if (rc != FW_OK)
        return rc;
    const fw_reconnect_options *options = &taken;
    fw_error local;
    if (c->async)
        return fwi_async_reconnect(c, options, err ? err : &local);
    return reconnect(c, options, err ? err : &local);
}

bool fwi_auto_recovers(const fw_client *c)
{
    if (!c->auto_reconnect || c->reconnecting || c->gave_up)
        return false;
    int code = c->broken.code;
    return code == FW_ERR_CLOSED || code == FW_ERR_IO || (code == FW_OK && c->stopping);
}

int fwi_prepare(fw_client *c, fw_error *err)
{
    int refused = fwi_refuse_async(c, err);
    if (refused != FW_OK)
        return refused;
    if (!c->auto_reconnect || c->reconnecting)
        return fwi_check_usable(c, err);
    if (c->broken.code == FW_OK && !c->stopping && fwi_route_arrived(c, err) == FW_OK && !c->stopping)
        return FW_OK;
    if (!fwi_auto_recovers(c))
        return fwi_check_usable(c, err);
    fw_error local;
    return reconnect(c, &c->auto_options, err ? err : &local);
}

int fwi_recover(fw_client *c, fw_error *err)
{
    int refused = fwi_refuse_async(c, err);
    if (refused != FW_OK)
        return refused;
    if (c->broken.code == FW_OK || !fwi_auto_recovers(c))
        return fwi_check_usable(c, err);
    fw_error local;
    return reconnect(c, &c->auto_options, err ? err : &local);
}
