/*
 * Calls: every request gets a fresh call_id, and every answer is routed by
 * it. The answer a blocking call waits for is returned to it; answers to
 * frames sent with fw_send() are queued on their session until fw_poll()
 * takes them; events of subscriptions go to their subscription; answers to
 * calls given up on are dropped.
 */
#include "internal.h"

#include <stdlib.h>

void fwi_free_call(struct call *call)
{
    if (call->answer)
        faceworker__v1__worker_message__free_unpacked(call->answer, NULL);
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

int fwi_route(fw_client *c, WorkerMessage *m, fw_error *err)
{
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

int fwi_call_worker(fw_client *c, ClientMessage *m, int expected, WorkerMessage **answer, fw_error *err)
{
    *answer = NULL;
    int rc = fwi_check_usable(c, err);
    if (rc != FW_OK)
        return rc;
    m->call_id = c->next_call_id++;
    int64_t deadline = fwi_deadline_after(c->timeout_ms);
    rc = fwi_send_message(c, m, deadline, err);
    if (rc != FW_OK)
        return rc;
    for (;;) {
        WorkerMessage *got;
        rc = fwi_receive_message(c, deadline, &got, err);
        if (rc != FW_OK)
            return rc;
        if (!got)
            return abandon(c, m->call_id, err);
        if (got->call_id != m->call_id) {
            rc = fwi_route(c, got, err);
            if (rc != FW_OK)
                return rc;
            continue;
        }
        if (got->kind_case == FACEWORKER__V1__WORKER_MESSAGE__KIND_ERROR) {
            rc = fwi_status_error(err, got->error);
            faceworker__v1__worker_message__free_unpacked(got, NULL);
            return rc;
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
