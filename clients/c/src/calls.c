/*
 * Calls: every request gets a fresh call_id, and every answer is routed by
 * it. The answer a blocking call waits for is returned to it; answers to
 * frames sent with fw_send() are queued on their session until fw_poll()
 * takes them; events of subscriptions go to their subscription; answers to
 * calls given up on are dropped. A stopping worker's refusal is noted on the
 * way, whoever it answers: the connection will close.
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void fwi_free_call(struct call *call)
{
    if (call->answer)
        faceworker__v1__worker_message__free_unpacked(call->answer, NULL);
    if (call->open) {
        if (call->open->session)
            fwi_free_session(call->open->session);
        free(call->open);
    }
    free(call);
}

void fwi_free_calls(struct call *call)
{
    while (call) {
        struct call *next = call->next;
        fwi_free_call(call);
        call = next;
    }
}

int fwi_route_next(fw_client *c, int64_t deadline, bool *idle, fw_error *err)
{
    WorkerMessage *m;
    int rc = fwi_receive_message(c, deadline, &m, err);
    *idle = rc == FW_OK && !m;
    if (rc != FW_OK)
        return rc;
    if (*idle) {
        fwi_clear_error(err);
        return FW_OK;
    }
    return fwi_route(c, m, err);
}

/* Whether m is a stopping worker's refusal: the worker sends UNAVAILABLE
 * for nothing else. */
static bool refused_by_stopping_worker(const WorkerMessage *m)
{
    return m->kind_case == FACEWORKER__V1__WORKER_MESSAGE__KIND_ERROR && m->error &&
           m->error->code == FACEWORKER__V1__STATUS__CODE__UNAVAILABLE;
}

int fwi_route_arrived(fw_client *c, fw_error *err)
{
    int64_t now = fwi_deadline_after(0);
    bool idle;
    int rc;
    do
        rc = fwi_route_next(c, now, &idle, err);
    while (rc == FW_OK && !idle);
    return rc;
}

int fwi_route(fw_client *c, WorkerMessage *m, fw_error *err)
{
    if (refused_by_stopping_worker(m))
        c->stopping = true;
    if (m->call_id == 0) {
        if (m->kind_case == FACEWORKER__V1__WORKER_MESSAGE__KIND_ERROR)
            fwi_status_error(&c->farewell, m->error);
        faceworker__v1__worker_message__free_unpacked(m, NULL);
        return FW_OK;
    }
    struct call **link = &c->in_flight;
    while (*link && (*link)->call_id != m->call_id)
        link = &(*link)->next;
    struct call *call = *link;
    if (!call) {
        bool taken;
        int rc = fwi_route_subscription(c, m, &taken, err);
        if (taken || rc != FW_OK)
            return rc;
        unsigned long long id = (unsigned long long)m->call_id;
        const char *kind = fwi_message_kind_name((int)m->kind_case);
        faceworker__v1__worker_message__free_unpacked(m, NULL);
        return fwi_break_connection(c, err, FW_ERR_PROTOCOL, 0,
                                    "face-worker answered call %llu with %s, but this client is not waiting for "
                                    "that call",
                                    id, kind);
    }
    *link = call->next;
    call->next = NULL;
    call->answer = m;
    if (call->kind != CALL_FRAME)
        return fwi_async_answer(c, call, err);
    fw_session *s = call->session;
    if (!s) {
        /* A subscription given up on still streams: it must be ended. */
        int rc = m->kind_case == FACEWORKER__V1__WORKER_MESSAGE__KIND_SUBSCRIBE
                     ? fwi_adopt_subscription(c, call->call_id, m->subscribe->subscription_id, err)
                     : FW_OK;
        fwi_free_call(call);
        return rc;
    }
    if (s->events_tail)
        s->events_tail->next = call;
    else
        s->events_head = call;
    s->events_tail = call;
    return FW_OK;
}

int fwi_queue_call(fw_client *c, ClientMessage *m, struct call *call, fw_error *err)
{
    m->call_id = c->next_call_id++;
    int rc = fwi_writer_append(&c->writer, m, err);
    if (rc != FW_OK)
        return rc;
    call->call_id = m->call_id;
    call->next = c->in_flight;
    c->in_flight = call;
    return FW_OK;
}

bool fwi_forget_handle(fw_client *c, const void *handle)
{
    bool restoring = false;
    for (struct call *call = c->in_flight; call; call = call->next) {
        if (call->session != handle && call->buffer != handle && call->sub != handle)
            continue;
        restoring |= call->kind == CALL_REOPEN || call->kind == CALL_REREGISTER || call->kind == CALL_RESUBSCRIBE;
        call->session = NULL;
        call->buffer = NULL;
        call->sub = NULL;
    }
    return restoring;
}

/* Remembers a call given up on, so that its late answer is dropped. */
static int abandon(fw_client *c, uint64_t call_id, fw_error *err)
{
    struct call *abandoned = calloc(1, sizeof *abandoned);
    if (!abandoned)
        return fwi_break_connection(c, err, FW_ERR_NOMEM, 0, "out of memory while giving up on call %llu",
                                    (unsigned long long)call_id);
    abandoned->call_id = call_id;
    abandoned->next = c->in_flight;
    c->in_flight = abandoned;
    return fwi_set_error(err, FW_DEADLINE_EXCEEDED, 0, "no answer from face-worker within %d ms", c->timeout_ms);
}

/* A call whose connection broke while its request was written or once it
 * was: the worker may or may not have acted on it, so it is not sent again.
 * Under auto-reconnect it fails once with FW_UNAVAILABLE, and the next call
 * connects again. */
static int cut_short(fw_client *c, int rc, fw_error *err)
{
    if (!c->auto_reconnect || c->reconnecting || (rc != FW_ERR_CLOSED && rc != FW_ERR_IO))
        return rc;
    return fwi_set_error(err, FW_UNAVAILABLE, c->broken.sys_errno,
                         "face-worker went away before answering (%s); the next call connects again",
                         c->broken.message);
}

/* A stopping worker refused the call, and will close the connection once
 * it has answered what it read: under auto-reconnect the next call waits
 * for that and connects again. */
static int refused_stopping(fw_client *c, int rc, fw_error *err)
{
    c->stopping = true;
    if (c->auto_reconnect && !c->reconnecting && err) {
        size_t len = strlen(err->message);
        snprintf(err->message + len, sizeof err->message - len, "; the next call connects again");
    }
    return rc;
}

int fwi_call_worker(fw_client *c, ClientMessage *m, int expected, WorkerMessage **answer, fw_error *err)
{
    *answer = NULL;
    int rc = fwi_refuse_async(c, err);
    if (rc == FW_OK)
        rc = fwi_check_usable(c, err);
    if (rc != FW_OK)
        return rc;
    m->call_id = c->next_call_id++;
    int64_t deadline = fwi_deadline_after(c->timeout_ms);
    rc = fwi_send_message(c, m, deadline, err);
    if (rc != FW_OK)
        return cut_short(c, rc, err);
    for (;;) {
        WorkerMessage *got;
        rc = fwi_receive_message(c, deadline, &got, err);
        if (rc != FW_OK)
            return cut_short(c, rc, err);
        if (!got)
            return abandon(c, m->call_id, err);
        if (got->call_id != m->call_id) {
            rc = fwi_route(c, got, err);
            if (rc != FW_OK)
                return cut_short(c, rc, err);
            continue;
        }
        if (got->kind_case == FACEWORKER__V1__WORKER_MESSAGE__KIND_ERROR) {
            bool stopping = refused_by_stopping_worker(got);
            rc = fwi_status_error(err, got->error);
            faceworker__v1__worker_message__free_unpacked(got, NULL);
            return stopping ? refused_stopping(c, rc, err) : rc;
        }
        if (expected != FACEWORKER__V1__WORKER_MESSAGE__KIND__NOT_SET && (int)got->kind_case != expected)
            return fwi_unexpected_answer(c, got, fwi_message_kind_name(expected), err);
        *answer = got;
        fwi_clear_error(err);
        return FW_OK;
    }
}

int fwi_call_worker_done(fw_client *c, ClientMessage *m, int expected, fw_error *err)
{
    WorkerMessage *answer;
    int rc = fwi_call_worker(c, m, expected, &answer, err);
    if (rc == FW_OK)
        faceworker__v1__worker_message__free_unpacked(answer, NULL);
    return rc;
}

int fwi_call_to_end(fw_client *c, ClientMessage *m, int expected, fw_error *err)
{
    int rc = fwi_auto_recovers(c) ? FW_OK : fwi_call_worker_done(c, m, expected, err);
    /* Cut or refused while ending it: it went all the same. */
    if (rc != FW_OK && fwi_auto_recovers(c))
        rc = FW_OK;
    if (rc == FW_OK)
        fwi_clear_error(err);
    return rc;
}
