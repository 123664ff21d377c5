/*
 * Sessions: opening one with its options, and resetting and closing it.
 * A session belongs to its client, which frees it at the latest in
 * fw_close().
 */
#include "internal.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

void fwi_free_session(fw_session *s)
{
    fwi_free_calls(s->events_head);
    if (s->opened)
        faceworker__v1__worker_message__free_unpacked(s->opened, NULL);
    free(s);
}

/* name NULL: a private session. */
static fw_session *open_session(fw_client *c, const fw_session_options *options, const char *name, fw_error *err)
{
    if (fwi_prepare(c, err) != FW_OK)
        return NULL;
    fw_session_options taken;
    if (!options)
        fw_session_options_init(&taken);
    else if (fwi_take_options(options, &taken, err) != FW_OK)
        return NULL;
    options = &taken;
    /* Allocated first: a session the worker opened but this client could
     * not hold would live on unseen until the connection closes. */
    fw_session *s = calloc(1, sizeof *s);
    if (!s) {
        fwi_set_error(err, FW_ERR_NOMEM, 0, "out of memory for a session");
        return NULL;
    }
    Faceworker__V1__SessionOptions po = FACEWORKER__V1__SESSION_OPTIONS__INIT;
    fwi_options_to_proto(options, &po);
    Faceworker__V1__OpenSessionRequest req = FACEWORKER__V1__OPEN_SESSION_REQUEST__INIT;
    req.options = &po;
    if (name) {
        req.optional_name_case = FACEWORKER__V1__OPEN_SESSION_REQUEST__OPTIONAL_NAME_NAME;
        req.name = (char *)(uintptr_t)name; /* only read while packing */
    }
    ClientMessage m = FACEWORKER__V1__CLIENT_MESSAGE__INIT;
    m.kind_case = FACEWORKER__V1__CLIENT_MESSAGE__KIND_OPEN_SESSION;
    m.open_session = &req;
    WorkerMessage *answer;
    if (fwi_call_worker(c, &m, FACEWORKER__V1__WORKER_MESSAGE__KIND_OPEN_SESSION, &answer, err) != FW_OK) {
        free(s);
        return NULL;
    }
    s->client = c;
    s->id = answer->open_session->session_id;
    /* The worker's echo, which holds at most FW_SESSION_NAME_MAX bytes. */
    if (name)
        snprintf(s->name, sizeof s->name, "%s",
                 answer->open_session->name && answer->open_session->name[0] ? answer->open_session->name : name);
    if (answer->open_session->options)
        fwi_options_from_proto(answer->open_session->options, &s->options);
    else
        s->options = *options;
    s->opened = answer;
    s->next = c->sessions;
    c->sessions = s;
    return s;
}

/* The OpenSession request for s's options and name, in storage the
 * caller provides; it points into s. */
struct open_request {
    ClientMessage message;
    Faceworker__V1__OpenSessionRequest open;
    Faceworker__V1__SessionOptions options;
};

static void build_open(fw_session *s, struct open_request *r)
{
    faceworker__v1__session_options__init(&r->options);
    fwi_options_to_proto(&s->options, &r->options);
    faceworker__v1__open_session_request__init(&r->open);
    r->open.options = &r->options;
    if (s->name[0]) {
        r->open.optional_name_case = FACEWORKER__V1__OPEN_SESSION_REQUEST__OPTIONAL_NAME_NAME;
        r->open.name = s->name;
    }
    faceworker__v1__client_message__init(&r->message);
    r->message.kind_case = FACEWORKER__V1__CLIENT_MESSAGE__KIND_OPEN_SESSION;
    r->message.open_session = &r->open;
}

void fwi_reopened(fw_client *c, fw_session *s, WorkerMessage *answer)
{
    s->id = answer->open_session->session_id;
    faceworker__v1__worker_message__free_unpacked(s->opened, NULL);
    s->opened = answer;
    s->restarted = true;
    s->restarted_from = c->next_call_id;
}

int fwi_open_again(fw_client *c, fw_session *s, fw_error *err)
{
    struct open_request r;
    build_open(s, &r);
    WorkerMessage *answer;
    int rc = fwi_call_worker(c, &r.message, FACEWORKER__V1__WORKER_MESSAGE__KIND_OPEN_SESSION, &answer, err);
    if (rc != FW_OK)
        return rc;
    fwi_reopened(c, s, answer);
    return FW_OK;
}

int fwi_queue_reopen(fw_client *c, fw_session *s, fw_error *err)
{
    struct call *call = calloc(1, sizeof *call);
    if (!call)
        return fwi_set_error(err, FW_ERR_NOMEM, 0, "out of memory for re-opening a session");
    call->kind = CALL_REOPEN;
    call->session = s;
    struct open_request r;
    build_open(s, &r);
    int rc = fwi_queue_call(c, &r.message, call, err);
    if (rc != FW_OK)
        free(call);
    return rc;
}

void fwi_open_finished(fw_client *c, struct pending_open *open)
{
    open->next = NULL;
    if (c->opens_done_tail)
        c->opens_done_tail->next = open;
    else
        c->opens_done = open;
    c->opens_done_tail = open;
}

int fwi_open_answered(fw_client *c, struct call *call, fw_error *err)
{
    struct pending_open *open = call->open;
    WorkerMessage *m = call->answer;
    call->open = NULL;
    call->answer = NULL;
    fwi_free_call(call);
    fw_session *s = open->session;
    int rc = FW_OK;
    if (m->kind_case == FACEWORKER__V1__WORKER_MESSAGE__KIND_OPEN_SESSION) {
        const Faceworker__V1__OpenSessionResponse *r = m->open_session;
        s->id = r->session_id;
        /* The worker's echo, which holds at most FW_SESSION_NAME_MAX bytes. */
        if (s->name[0] && r->name && r->name[0])
            snprintf(s->name, sizeof s->name, "%s", r->name);
        if (r->options)
            fwi_options_from_proto(r->options, &s->options);
        s->opened = m;
        s->next = c->sessions;
        c->sessions = s;
        fwi_clear_error(&open->status);
    } else {
        if (m->kind_case == FACEWORKER__V1__WORKER_MESSAGE__KIND_ERROR) {
            fwi_status_error(&open->status, m->error);
            faceworker__v1__worker_message__free_unpacked(m, NULL);
        } else {
            rc = fwi_unexpected_answer(c, m, "open_session", err);
            open->status = *err;
        }
        fwi_free_session(s);
        open->session = NULL;
    }
    fwi_open_finished(c, open);
    return rc;
}

fw_session *fw_open_session(fw_client *c, const fw_session_options *options, fw_error *err)
{
    if (!c) {
        fwi_set_error(err, FW_ERR_USAGE, 0, "fw_open_session: no client");
        return NULL;
    }
    return open_session(c, options, NULL, err);
}

fw_session *fw_open_named_session(fw_client *c, const fw_session_options *options, const char *name,
                                  fw_error *err)
{
    if (!c || !name) {
        fwi_set_error(err, FW_ERR_USAGE, 0, "fw_open_named_session: no client or no name");
        return NULL;
    }
    return open_session(c, options, name, err);
}

int fw_open_session_async(fw_client *c, const fw_session_options *options, const char *name,
                          fw_open_callback callback, void *data, fw_error *err)
{
    if (!c || !callback)
        return fwi_set_error(err, FW_ERR_USAGE, 0, "fw_open_session_async: no client or no callback");
    if (!c->async)
        return fwi_set_error(err, FW_ERR_USAGE, 0,
                             "fw_open_session_async: the client is not in async mode, where the callback is "
                             "called; call fw_async_start first, or use fw_open_session");
    if (c->reconnect_pending)
        return fwi_set_error(err, FW_UNAVAILABLE, 0,
                             "face-worker went away and the client is connecting again; the session was not "
                             "asked for");
    int rc = fwi_check_usable(c, err);
    if (rc != FW_OK)
        return rc;
    fw_session_options taken;
    if (!options)
        fw_session_options_init(&taken);
    else if ((rc = fwi_take_options(options, &taken, err)) != FW_OK)
        return rc;
    /* Allocated first: a session the worker opened but this client could
     * not hold would live on unseen until the connection closes. */
    fw_session *s = calloc(1, sizeof *s);
    struct pending_open *open = calloc(1, sizeof *open);
    struct call *call = calloc(1, sizeof *call);
    if (!s || !open || !call) {
        free(s);
        free(open);
        free(call);
        return fwi_set_error(err, FW_ERR_NOMEM, 0, "out of memory for a session");
    }
    s->client = c;
    s->options = taken;
    if (name)
        snprintf(s->name, sizeof s->name, "%s", name);
    open->callback = callback;
    open->data = data;
    open->session = s;
    call->kind = CALL_OPEN;
    call->open = open;
    struct open_request r;
    build_open(s, &r);
    if (name) {
        /* The name as given, which the worker judges, empty or too long. */
        r.open.optional_name_case = FACEWORKER__V1__OPEN_SESSION_REQUEST__OPTIONAL_NAME_NAME;
        r.open.name = (char *)(uintptr_t)name; /* only read while packing */
    }
    rc = fwi_queue_call(c, &r.message, call, err);
    if (rc != FW_OK) {
        fwi_free_call(call);
        return rc;
    }
    return fwi_async_flush(c, err);
}

const char *fw_session_name(const fw_session *s)
{
    return s->name;
}

void fw_session_get_options(const fw_session *s, fw_session_options *out)
{
    fwi_give_options(&s->options, out);
}

uint64_t fw_session_id(const fw_session *s)
{
    return s->id;
}

const char *const *fw_session_blendshape_names(const fw_session *s, size_t *count)
{
    const Faceworker__V1__OpenSessionResponse *r = s->opened->open_session;
    *count = r->n_blendshape_names;
    return r->n_blendshape_names ? (const char *const *)r->blendshape_names : NULL;
}

size_t fw_session_pending(const fw_session *s)
{
    return s->pending;
}

int fw_close_session(fw_session *s, fw_error *err)
{
    if (!s) {
        fwi_clear_error(err);
        return FW_OK;
    }
    fw_client *c = s->client;
    Faceworker__V1__CloseSessionRequest req = FACEWORKER__V1__CLOSE_SESSION_REQUEST__INIT;
    req.session_id = s->id;
    ClientMessage m = FACEWORKER__V1__CLIENT_MESSAGE__INIT;
    m.kind_case = FACEWORKER__V1__CLIENT_MESSAGE__KIND_CLOSE_SESSION;
    m.close_session = &req;
    int rc;
    if (c->async)
        rc = fwi_async_end(c, &m, s, NULL, err);
    else
        rc = fwi_call_to_end(c, &m, FACEWORKER__V1__WORKER_MESSAGE__KIND_CLOSE_SESSION, err);
    /* Answers still to come for this session are no one's any more. */
    fwi_forget_handle(c, s);
    for (fw_session **link = &c->sessions; *link; link = &(*link)->next) {
        if (*link == s) {
            *link = s->next;
            break;
        }
    }
    c->handles_freed++;
    fwi_free_session(s);
    return rc;
}

int fw_reset_session(fw_session *s, fw_error *err)
{
    if (!s)
        return fwi_set_error(err, FW_ERR_USAGE, 0, "fw_reset_session: no session");
    int rc = fwi_prepare(s->client, err);
    if (rc != FW_OK)
        return rc;
    Faceworker__V1__ResetSessionRequest req = FACEWORKER__V1__RESET_SESSION_REQUEST__INIT;
    req.session_id = s->id;
    ClientMessage m = FACEWORKER__V1__CLIENT_MESSAGE__INIT;
    m.kind_case = FACEWORKER__V1__CLIENT_MESSAGE__KIND_RESET_SESSION;
    m.reset_session = &req;
    return fwi_call_worker_done(s->client, &m, FACEWORKER__V1__WORKER_MESSAGE__KIND_RESET_SESSION, err);
}
