/*
 * Subscriptions: following a named session. Every event arrives under the
 * Subscribe call's call_id and waits on its subscription, in order, until
 * fw_receive() takes it; a bounded number wait, and the rest are counted
 * as lost, as the worker counts those it could not deliver.
 */
#include "internal.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EVENT_ANSWERS "session_event"

static void drop_events(fw_subscription *sub)
{
    struct sub_event *e = sub->head;
    while (e) {
        struct sub_event *next = e->next;
        if (e->message)
            faceworker__v1__worker_message__free_unpacked(e->message, NULL);
        free(e);
        e = next;
    }
    sub->head = sub->tail = NULL;
    sub->queued = 0;
}

void fwi_free_subscription(fw_subscription *sub)
{
    drop_events(sub);
    if (sub->subscribed)
        faceworker__v1__worker_message__free_unpacked(sub->subscribed, NULL);
    free(sub);
}

static void unlink_subscription(fw_client *c, fw_subscription *sub)
{
    c->handles_freed++;
    for (fw_subscription **link = &c->subscriptions; *link; link = &(*link)->next) {
        if (*link == sub) {
            *link = sub->next;
            return;
        }
    }
}

static void append(fw_subscription *sub, struct sub_event *e)
{
    if (sub->tail)
        sub->tail->next = e;
    else
        sub->head = e;
    sub->tail = e;
}

/* Counts n lost events at the end of the queue, where they were lost. */
static int note_lost(fw_subscription *sub, uint64_t n, fw_error *err)
{
    if (sub->tail && !sub->tail->message && !sub->tail->restarted) {
        sub->tail->lost += n;
        return FW_OK;
    }
    struct sub_event *e = calloc(1, sizeof *e);
    if (!e)
        return fwi_break_connection(sub->client, err, FW_ERR_NOMEM, 0, "out of memory for a subscription's event");
    e->lost = n;
    append(sub, e);
    return FW_OK;
}

/* Sends Unsubscribe without waiting: its answer is dropped when it comes. */
static int unsubscribe_later(fw_client *c, uint64_t subscription_id, fw_error *err)
{
    struct call *call = calloc(1, sizeof *call);
    if (!call)
        return fwi_break_connection(c, err, FW_ERR_NOMEM, 0, "out of memory for ending a subscription");
    Faceworker__V1__UnsubscribeRequest req = FACEWORKER__V1__UNSUBSCRIBE_REQUEST__INIT;
    req.subscription_id = subscription_id;
    ClientMessage m = FACEWORKER__V1__CLIENT_MESSAGE__INIT;
    m.kind_case = FACEWORKER__V1__CLIENT_MESSAGE__KIND_UNSUBSCRIBE;
    m.unsubscribe = &req;
    m.call_id = c->next_call_id++;
    int rc = fwi_send_message(c, &m, fwi_deadline_after(c->timeout_ms), err);
    if (rc != FW_OK) {
        free(call);
        return rc;
    }
    call->call_id = m.call_id;
    call->next = c->in_flight;
    c->in_flight = call;
    return FW_OK;
}

int fwi_adopt_subscription(fw_client *c, uint64_t call_id, uint64_t subscription_id, fw_error *err)
{
    fw_subscription *sub = calloc(1, sizeof *sub);
    if (!sub)
        return fwi_break_connection(c, err, FW_ERR_NOMEM, 0, "out of memory for a subscription given up on");
    sub->client = c;
    sub->call_id = call_id;
    sub->id = subscription_id;
    sub->abandoned = true;
    sub->next = c->subscriptions;
    c->subscriptions = sub;
    return unsubscribe_later(c, subscription_id, err);
}

int fwi_route_subscription(fw_client *c, WorkerMessage *m, bool *taken, fw_error *err)
{
    *taken = false;
    fw_subscription *sub = c->subscriptions;
    while (sub && (sub->ended || sub->call_id != m->call_id))
        sub = sub->next;
    if (!sub)
        return FW_OK;
    *taken = true;
    if (m->kind_case != FACEWORKER__V1__WORKER_MESSAGE__KIND_SESSION_EVENT)
        return fwi_unexpected_answer(c, m, EVENT_ANSWERS, err);
    const Faceworker__V1__SessionEvent *ev = m->session_event;
    bool last = ev->event_case == FACEWORKER__V1__SESSION_EVENT__EVENT_SESSION_ENDED;
    sub->ended = last;
    sub->stopped = last && ev->session_ended->reason == FACEWORKER__V1__SESSION_ENDED__REASON__REASON_WORKER_STOPPING;
    if (sub->stopped)
        c->stopping = true;
    /* Under auto-reconnect the worker's stop is an outage, not an end: the
     * subscription goes on, and its next event is FW_SUB_RESTARTED. */
    if (sub->abandoned || (sub->stopped && c->auto_reconnect)) {
        faceworker__v1__worker_message__free_unpacked(m, NULL);
        if (last && sub->abandoned) {
            unlink_subscription(c, sub);
            fwi_free_subscription(sub);
        }
        return FW_OK;
    }
    if (ev->event_case == FACEWORKER__V1__SESSION_EVENT__EVENT_EVENTS_MISSED) {
        uint64_t count = ev->events_missed->count;
        faceworker__v1__worker_message__free_unpacked(m, NULL);
        return count > 0 ? note_lost(sub, count, err) : FW_OK;
    }
    /* An event of a later version of the API, which this client may ignore. */
    if (ev->event_case == FACEWORKER__V1__SESSION_EVENT__EVENT__NOT_SET) {
        faceworker__v1__worker_message__free_unpacked(m, NULL);
        return FW_OK;
    }
    /* The end always finds room: it is what says nothing more will come. */
    if (!last && sub->queue_limit > 0 && sub->queued >= sub->queue_limit) {
        faceworker__v1__worker_message__free_unpacked(m, NULL);
        return note_lost(sub, 1, err);
    }
    struct sub_event *e = calloc(1, sizeof *e);
    if (!e) {
        faceworker__v1__worker_message__free_unpacked(m, NULL);
        return fwi_break_connection(c, err, FW_ERR_NOMEM, 0, "out of memory for a subscription's event");
    }
    e->message = m;
    append(sub, e);
    sub->queued++;
    return FW_OK;
}

fw_subscription *fw_subscribe(fw_client *c, const char *name, fw_error *err)
{
    if (!c || !name) {
        fwi_set_error(err, FW_ERR_USAGE, 0, "fw_subscribe: no client or no name");
        return NULL;
    }
    if (fwi_prepare(c, err) != FW_OK)
        return NULL;
    /* Allocated first: a subscription the worker made but this client could
     * not hold would stream to it unseen. */
    fw_subscription *sub = calloc(1, sizeof *sub);
    if (!sub) {
        fwi_set_error(err, FW_ERR_NOMEM, 0, "out of memory for a subscription");
        return NULL;
    }
    Faceworker__V1__SubscribeRequest req = FACEWORKER__V1__SUBSCRIBE_REQUEST__INIT;
    req.name = (char *)(uintptr_t)name; /* only read while packing */
    ClientMessage m = FACEWORKER__V1__CLIENT_MESSAGE__INIT;
    m.kind_case = FACEWORKER__V1__CLIENT_MESSAGE__KIND_SUBSCRIBE;
    m.subscribe = &req;
    WorkerMessage *answer;
    if (fwi_call_worker(c, &m, FACEWORKER__V1__WORKER_MESSAGE__KIND_SUBSCRIBE, &answer, err) != FW_OK) {
        free(sub);
        return NULL;
    }
    const Faceworker__V1__SubscribeResponse *r = answer->subscribe;
    sub->client = c;
    sub->call_id = m.call_id;
    sub->id = r->subscription_id;
    sub->session_id = r->session_id;
    snprintf(sub->name, sizeof sub->name, "%s", r->name && r->name[0] ? r->name : name);
    if (r->options)
        fwi_options_from_proto(r->options, &sub->options);
    else
        fw_session_options_init(&sub->options);
    sub->queue_limit = r->queue_limit;
    sub->subscribed = answer;
    sub->next = c->subscriptions;
    c->subscriptions = sub;
    return sub;
}

void fwi_resubscribed(fw_subscription *sub, uint64_t call_id, WorkerMessage *answer)
{
    const Faceworker__V1__SubscribeResponse *r = answer->subscribe;
    sub->call_id = call_id;
    sub->id = r->subscription_id;
    sub->session_id = r->session_id;
    if (r->options)
        fwi_options_from_proto(r->options, &sub->options);
    sub->queue_limit = r->queue_limit;
    if (sub->subscribed)
        faceworker__v1__worker_message__free_unpacked(sub->subscribed, NULL);
    sub->subscribed = answer;
    sub->ended = sub->stopped = false;
}

int fwi_subscribe_again(fw_client *c, fw_subscription *sub, fw_error *err)
{
    Faceworker__V1__SubscribeRequest req = FACEWORKER__V1__SUBSCRIBE_REQUEST__INIT;
    req.name = sub->name;
    ClientMessage m = FACEWORKER__V1__CLIENT_MESSAGE__INIT;
    m.kind_case = FACEWORKER__V1__CLIENT_MESSAGE__KIND_SUBSCRIBE;
    m.subscribe = &req;
    WorkerMessage *answer;
    int rc = fwi_call_worker(c, &m, FACEWORKER__V1__WORKER_MESSAGE__KIND_SUBSCRIBE, &answer, err);
    if (rc != FW_OK)
        return rc;
    fwi_resubscribed(sub, m.call_id, answer);
    return FW_OK;
}

int fwi_queue_resubscribe(fw_client *c, fw_subscription *sub, fw_error *err)
{
    struct call *call = calloc(1, sizeof *call);
    if (!call)
        return fwi_set_error(err, FW_ERR_NOMEM, 0, "out of memory for subscribing again");
    call->kind = CALL_RESUBSCRIBE;
    call->sub = sub;
    Faceworker__V1__SubscribeRequest req = FACEWORKER__V1__SUBSCRIBE_REQUEST__INIT;
    req.name = sub->name;
    ClientMessage m = FACEWORKER__V1__CLIENT_MESSAGE__INIT;
    m.kind_case = FACEWORKER__V1__CLIENT_MESSAGE__KIND_SUBSCRIBE;
    m.subscribe = &req;
    int rc = fwi_queue_call(c, &m, call, err);
    if (rc != FW_OK)
        free(call);
    return rc;
}

int fwi_note_restart(fw_subscription *sub, fw_error *err)
{
    struct sub_event *e = calloc(1, sizeof *e);
    if (!e)
        return fwi_set_error(err, FW_ERR_NOMEM, 0, "out of memory for a subscription's event");
    e->restarted = true;
    append(sub, e);
    sub->restart_note = e;
    return FW_OK;
}

void fwi_drop_since_restart(fw_subscription *sub, bool note)
{
    /* The last event to keep: the note, or without it the one before it. */
    struct sub_event *keep = sub->restart_note;
    if (note) {
        keep = NULL;
        for (struct sub_event *e = sub->head; e != sub->restart_note; e = e->next)
            keep = e;
    }
    struct sub_event *e = keep ? keep->next : sub->head;
    while (e) {
        struct sub_event *next = e->next;
        if (e->message) {
            faceworker__v1__worker_message__free_unpacked(e->message, NULL);
            sub->queued--;
        }
        free(e);
        e = next;
    }
    if (keep)
        keep->next = NULL;
    else
        sub->head = NULL;
    sub->tail = keep;
    if (note)
        sub->restart_note = NULL;
    /* Whatever ended it came on the connection given up on. */
    sub->ended = sub->stopped = false;
}

uint64_t fw_subscription_id(const fw_subscription *sub)
{
    return sub->id;
}

uint64_t fw_subscription_session_id(const fw_subscription *sub)
{
    return sub->session_id;
}

const char *fw_subscription_name(const fw_subscription *sub)
{
    return sub->name;
}

void fw_subscription_get_options(const fw_subscription *sub, fw_session_options *out)
{
    fwi_give_options(&sub->options, out);
}

const char *const *fw_subscription_blendshape_names(const fw_subscription *sub, size_t *count)
{
    const Faceworker__V1__SubscribeResponse *r = sub->subscribed->subscribe;
    *count = r->n_blendshape_names;
    return r->n_blendshape_names ? (const char *const *)r->blendshape_names : NULL;
}

uint32_t fw_subscription_queue_limit(const fw_subscription *sub)
{
    return sub->queue_limit;
}

void fwi_clear_subscription_event(fw_subscription_event *ev)
{
    memset(ev, 0, sizeof *ev);
    ev->size = (uint32_t)sizeof *ev;
}

void fwi_pop_subscription_event(fw_subscription *sub, fw_subscription_event *out)
{
    struct sub_event *e = sub->head;
    sub->head = e->next;
    if (!sub->head)
        sub->tail = NULL;
    WorkerMessage *m = e->message;
    if (!m) {
        out->type = e->restarted ? FW_SUB_RESTARTED : FW_SUB_MISSED;
        out->missed = e->lost;
        free(e);
        return;
    }
    free(e);
    sub->queued--;
    const Faceworker__V1__SessionEvent *ev = m->session_event;
    switch (ev->event_case) {
    case FACEWORKER__V1__SESSION_EVENT__EVENT_FRAME_RESULT:
        out->type = FW_SUB_RESULT;
        out->timestamp_ms = ev->frame_result->timestamp_ms;
        out->has_timestamp = true;
        out->result = fwi_hand_out_result(NULL, m);
        return;
    case FACEWORKER__V1__SESSION_EVENT__EVENT_FRAME_DROPPED:
        out->type = FW_SUB_DROPPED;
        out->timestamp_ms = ev->frame_dropped->timestamp_ms;
        out->has_timestamp = true;
        out->drop_reason = (fw_drop_reason)ev->frame_dropped->reason;
        break;
    case FACEWORKER__V1__SESSION_EVENT__EVENT_FRAME_ERROR:
        out->type = FW_SUB_FRAME_ERROR;
        fwi_status_error(&out->error, ev->frame_error);
        out->has_timestamp = ev->frame_error->optional_timestamp_ms_case != 0;
        out->timestamp_ms = out->has_timestamp ? ev->frame_error->timestamp_ms : 0;
        break;
    case FACEWORKER__V1__SESSION_EVENT__EVENT_SESSION_RESET:
        out->type = FW_SUB_RESET;
        break;
    default: /* routing queues nothing else but the end */
        out->type = FW_SUB_ENDED;
        out->end_reason = (fw_end_reason)ev->session_ended->reason;
        break;
    }
    faceworker__v1__worker_message__free_unpacked(m, NULL);
}

int fw_receive(fw_subscription *sub, int timeout_ms, fw_subscription_event *event, fw_error *err)
{
    if (!sub || !event)
        return fwi_set_error(err, FW_ERR_USAGE, 0, "fw_receive: no subscription or no event");
    fwi_clear_subscription_event(event);
    fw_client *c = sub->client;
    int rc = fwi_refuse_async(c, err);
    if (rc != FW_OK)
        return rc;
    int64_t deadline = fwi_deadline_after(timeout_ms);
    while (!sub->head) {
        /* A worker's stop under auto-reconnect ends nothing: see routing. */
        if (sub->ended && !(sub->stopped && c->auto_reconnect))
            return fwi_set_error(err, FW_ERR_USAGE, 0,
                                 "fw_receive: the subscription to \"%s\" has ended; free it with fw_unsubscribe",
                                 sub->name);
        rc = fwi_recover(c, err);
        if (rc != FW_OK)
            return rc;
        if (sub->head)
            break;
        bool idle;
        rc = fwi_route_next(c, deadline, &idle, err);
        if (rc != FW_OK && !fwi_auto_recovers(c))
            return rc;
        if (idle)
            return FW_OK;
    }
    fwi_pop_subscription_event(sub, event);
    fwi_clear_error(err);
    return FW_OK;
}

int fw_unsubscribe(fw_subscription *sub, fw_error *err)
{
    if (!sub) {
        fwi_clear_error(err);
        return FW_OK;
    }
    fw_client *c = sub->client;
    int rc = FW_OK;
    bool told = !c->async; /* the worker was asked to end it */
    if (!sub->ended) {
        Faceworker__V1__UnsubscribeRequest req = FACEWORKER__V1__UNSUBSCRIBE_REQUEST__INIT;
        req.subscription_id = sub->id;
        ClientMessage m = FACEWORKER__V1__CLIENT_MESSAGE__INIT;
        m.kind_case = FACEWORKER__V1__CLIENT_MESSAGE__KIND_UNSUBSCRIBE;
        m.unsubscribe = &req;
        if (c->async)
            rc = fwi_async_end(c, &m, sub, &told, err);
        else
            rc = fwi_call_to_end(c, &m, FACEWORKER__V1__WORKER_MESSAGE__KIND_UNSUBSCRIBE, err);
        /* The end came first: the worker no longer knew it, and that is done. */
        if (rc == FW_NOT_FOUND && sub->ended)
            rc = FW_OK;
    }
    if (rc == FW_OK)
        fwi_clear_error(err);
    fwi_forget_handle(c, sub);
    if (!sub->ended && told && fwi_check_usable(c, NULL) == FW_OK) {
        /* Still streaming (the call timed out, or a stopping worker was not
         * told): its events are discarded until its end comes. */
        drop_events(sub);
        sub->abandoned = true;
        return rc;
    }
    unlink_subscription(c, sub);
    fwi_free_subscription(sub);
    return rc;
}
