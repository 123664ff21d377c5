/*
 * The non-blocking calls and the asynchronous front. Nothing here waits:
 * the loop says when the socket is ready, progress() takes what it offers,
 * and in async mode dispatch() hands what arrived to the handlers. A
 * broken connection under auto-reconnect is mended by attempts that never
 * wait either: a non-blocking connect the loop watches for writability,
 * then every session, buffer and subscription asked for again at once,
 * their answers taken as the loop finds them readable; the waits between
 * attempts, and an attempt's own bound, are the loop's timer.
 */
#include "internal.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>

int fwi_refuse_async(const fw_client *c, fw_error *err)
{
    if (!c->async)
        return FW_OK;
    return fwi_set_error(err, FW_ERR_USAGE, 0,
                         "the client is in async mode, where a call that waits for face-worker would stall the "
                         "event loop: answers come to the handlers; open sessions with fw_open_session_async, "
                         "subscribe and register buffers before fw_async_start");
}

int fw_client_fd(const fw_client *c)
{
    return c->fd;
}

unsigned fw_client_wants(const fw_client *c)
{
    if (c->fd < 0 || c->broken.code != FW_OK || (c->reconnect_pending && c->reconnect_phase == RECONNECT_WAITING))
        return 0;
    if (c->connecting != CONNECTED)
        return FW_WANT_WRITE;
    return FW_WANT_READ | (fwi_writer_pending(&c->writer) > 0 ? FW_WANT_WRITE : 0);
}

static int finish_connect(fw_client *c, fw_error *err)
{
    if (c->connecting == CONNECT_AGAIN) {
        struct sockaddr_un addr;
        int rc = fwi_socket_address(c->path, &addr, err);
        if (rc != FW_OK)
            return fwi_break_connection(c, err, rc, 0, "%s", err->message);
        if (connect(c->fd, (const struct sockaddr *)&addr, sizeof addr) == 0 || errno == EISCONN) {
            c->connecting = CONNECTED;
            return FW_OK;
        }
        if (errno == EAGAIN || errno == EINTR)
            return FW_OK;
        fw_error why;
        fwi_connect_error(c->path, errno, &why);
        return fwi_break_connection(c, err, why.code, why.sys_errno, "%s", why.message);
    }
    struct pollfd p = {.fd = c->fd, .events = POLLOUT};
    if (poll(&p, 1, 0) <= 0)
        return FW_OK;
    int so_error = 0;
    socklen_t len = sizeof so_error;
    if (getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &so_error, &len) < 0)
        so_error = errno;
    if (so_error != 0) {
        fw_error why;
        fwi_connect_error(c->path, so_error, &why);
        return fwi_break_connection(c, err, why.code, why.sys_errno, "%s", why.message);
    }
    c->connecting = CONNECTED;
    return FW_OK;
}

/* One read at most per call, so that one busy connection cannot hold a
 * loop that serves others; a level-triggered loop calls again for the
 * rest. */
static int progress(fw_client *c, unsigned ready, fw_error *err)
{
    if (c->broken.code != FW_OK)
        return fwi_check_usable(c, err);
    if (c->fd < 0)
        return FW_OK;
    int rc = FW_OK;
    if (c->connecting != CONNECTED) {
        rc = finish_connect(c, err);
        if (rc != FW_OK || c->connecting != CONNECTED)
            return rc;
    }
    size_t written;
    if (fwi_writer_pending(&c->writer) > 0 && (rc = fwi_flush(c, &written, err)) != FW_OK)
        return rc;
    if (ready & FW_WANT_READ && (rc = fwi_fill_reader(c, err)) != FW_OK)
        return rc;
    for (;;) {
        WorkerMessage *m;
        rc = fwi_next_message(c, &m, err);
        if (rc != FW_OK || !m)
            return rc;
        rc = fwi_route(c, m, err);
        if (rc != FW_OK)
            return rc;
    }
}

int fw_client_progress(fw_client *c, fw_error *err)
{
    if (!c)
        return fwi_set_error(err, FW_ERR_USAGE, 0, "fw_client_progress: no client");
    int rc = progress(c, FW_WANT_READ | FW_WANT_WRITE, err);
    if (rc == FW_OK)
        fwi_clear_error(err);
    return rc;
}

/* Tells the loop what to watch, when that changed. */
static void update_watch(fw_client *c)
{
    if (!c->hooked)
        return;
    unsigned wants = fw_client_wants(c);
    int fd = wants ? c->fd : -1;
    if (fd == c->watched_fd && wants == c->watched_wants)
        return;
    c->watched_fd = fd;
    c->watched_wants = wants;
    if (c->hooks.watch)
        c->hooks.watch(c->hooks.loop, c, fd, wants);
}

static void set_timer(fw_client *c, int timeout_ms)
{
    if (c->hooked && c->hooks.set_timer)
        c->hooks.set_timer(c->hooks.loop, c, timeout_ms);
}

/* Hands every waiting event to the handlers: a round gives each session
 * and subscription one event, so that none waits behind a busy one. A
 * handler that frees a handle ends the round; the next starts from the
 * lists' heads. */
static void dispatch(fw_client *c)
{
    if (!c->async)
        return;
    while (c->opens_done) {
        struct pending_open *open = c->opens_done;
        c->opens_done = open->next;
        if (!c->opens_done)
            c->opens_done_tail = NULL;
        open->callback(c, open->session, &open->status, open->data);
        free(open);
    }
    const fw_async_handlers *h = &c->handlers;
    bool any;
    do {
        any = false;
        uint64_t freed = c->handles_freed;
        /* The next link is read only while no handler has freed a handle. */
        for (fw_session *s = c->sessions; s && freed == c->handles_freed;
             s = freed == c->handles_freed ? s->next : NULL) {
            fw_event ev;
            fw_error err;
            int rc;
            if (!fwi_session_event(s, &ev, &rc, &err))
                continue;
            any = true;
            if (rc != FW_OK)
                continue;
            if (h->on_event)
                h->on_event(s, &ev, h->data);
            else
                fw_result_free(ev.result);
        }
        for (fw_subscription *sub = c->subscriptions; sub && freed == c->handles_freed;
             sub = freed == c->handles_freed ? sub->next : NULL) {
            /* A restart is told once the subscription is back, not before. */
            if (!sub->head || sub->abandoned || sub->head == sub->restart_note)
                continue;
            any = true;
            fw_subscription_event ev;
            fwi_clear_subscription_event(&ev);
            fwi_pop_subscription_event(sub, &ev);
            if (h->on_subscription_event)
                h->on_subscription_event(sub, &ev, h->data);
            else
                fw_result_free(ev.result);
        }
    } while (any);
}

static void report(fw_client *c, const fw_error *err)
{
    if (c->handlers.on_connection_error)
        c->handlers.on_connection_error(c, err, c->handlers.data);
}

/* Every open in flight fails: the connection they were asked on is gone.
 * Under a reconnect they are not asked again, since the old worker may
 * have opened them. */
static void fail_opens(fw_client *c, const fw_error *why, bool reconnecting)
{
    struct call **link = &c->in_flight;
    struct call *failed = NULL;
    while (*link) {
        struct call *call = *link;
        if (call->kind != CALL_OPEN) {
            link = &call->next;
            continue;
        }
        *link = call->next;
        call->next = failed;
        failed = call;
    }
    /* The list holds the newest call first; callbacks run oldest first. */
    while (failed) {
        struct call *call = failed;
        failed = call->next;
        struct pending_open *open = call->open;
        call->open = NULL;
        fwi_free_session(open->session);
        open->session = NULL;
        if (reconnecting && why->code != FW_OK)
            fwi_set_error(&open->status, FW_UNAVAILABLE, why->sys_errno,
                          "face-worker went away before answering (%s); the client connects again", why->message);
        else if (reconnecting)
            fwi_set_error(&open->status, FW_UNAVAILABLE, 0,
                          "the client connected again before face-worker answered");
        else
            open->status = *why;
        fwi_open_finished(c, open);
        fwi_free_call(call);
    }
}

static void reconnected(fw_client *c)
{
    c->reconnect_pending = false;
    c->break_handled = false;
    fwi_reconnect_done(c);
    set_timer(c, -1);
    dispatch(c);
    update_watch(c);
}

static void give_up(fw_client *c, fw_error *err)
{
    c->reconnect_pending = false;
    set_timer(c, -1);
    fwi_reconnect_give_up(c, err);
    dispatch(c);
    update_watch(c);
    report(c, err);
}

/* The attempt under way failed with rc: the next waits on the loop's
 * timer, unless the reconnect gives up. The loop lets go of the socket
 * before it is closed. */
static void attempt_failed(fw_client *c, int rc, fw_error *err)
{
    bool retry;
    fwi_attempt_failed(c, rc, &c->reconnect_options, c->reconnect_deadline_ms, &retry, err);
    c->reconnect_phase = RECONNECT_WAITING;
    update_watch(c);
    fwi_disconnect(c);
    if (!retry) {
        give_up(c, err);
        return;
    }
    int64_t left = c->reconnect_deadline_ms - fwi_now_ms();
    int wait = c->reconnect_delay_ms < left ? c->reconnect_delay_ms : (int)left;
    int max = c->reconnect_options.max_delay_ms;
    c->reconnect_delay_ms = c->reconnect_delay_ms * 2 < max ? c->reconnect_delay_ms * 2 : max;
    set_timer(c, wait < 0 ? 0 : wait);
}

/* Connected: asks for every session, buffer and subscription again at
 * once, each a call whose answer comes when the loop finds it. */
static void restore(fw_client *c)
{
    fw_error err;
    int rc = FW_OK;
    c->reconnect_phase = RECONNECT_RESTORING;
    c->restore_left = 0;
    fwi_clear_error(&c->restore_failed);
    for (fw_session *s = c->sessions; s && rc == FW_OK; s = s->next)
        if ((rc = fwi_queue_reopen(c, s, &err)) == FW_OK)
            c->restore_left++;
    for (fw_buffer *b = c->buffers; b && rc == FW_OK; b = b->next)
        if ((rc = fwi_queue_register_again(c, b, &err)) == FW_OK)
            c->restore_left++;
    for (fw_subscription *sub = c->subscriptions; sub && rc == FW_OK; sub = sub->next)
        if (sub->restart_note && (rc = fwi_queue_resubscribe(c, sub, &err)) == FW_OK)
            c->restore_left++;
    size_t written;
    if (rc == FW_OK)
        rc = fwi_flush(c, &written, &err);
    if (rc != FW_OK) {
        attempt_failed(c, rc, &err);
        return;
    }
    if (c->restore_left == 0) {
        reconnected(c);
        return;
    }
    update_watch(c);
}

/* One attempt: a socket whose connect(2) does not wait, bounded by the
 * loop's timer. */
static void attempt_now(fw_client *c)
{
    fw_error err;
    fwi_disconnect(c);
    c->fd = fwi_open_socket(c->path, &c->connecting, &err);
    if (c->fd >= 0 && c->connecting == CONNECT_AGAIN) {
        /* A full listen queue: the socket would read as writable before
         * it can connect, and the loop would spin on it. The next attempt
         * waits for the timer, as a blocking one waits in the queue. */
        fwi_connect_error(c->path, EAGAIN, &err);
    }
    if (c->fd < 0 || c->connecting == CONNECT_AGAIN) {
        attempt_failed(c, err.code, &err);
        return;
    }
    int wait = fwi_attempt_wait_ms(c, &c->reconnect_options, c->reconnect_deadline_ms);
    c->attempt_deadline_ms = fwi_now_ms() + wait;
    set_timer(c, wait);
    c->reconnect_phase = RECONNECT_CONNECTING;
    if (c->connecting == CONNECTED)
        restore(c);
    else
        update_watch(c);
}

/* The loop found the attempt's socket ready: the connect finishes, the
 * answers come in. */
static void attempt_progress(fw_client *c, unsigned ready)
{
    fw_error err;
    int rc = progress(c, ready, &err);
    if (rc == FW_OK && c->restore_failed.code != FW_OK) {
        err = c->restore_failed;
        rc = err.code;
    }
    if (rc != FW_OK) {
        attempt_failed(c, rc, &err);
        return;
    }
    if (c->reconnect_phase == RECONNECT_CONNECTING && c->connecting == CONNECTED)
        restore(c);
    else if (c->reconnect_phase == RECONNECT_RESTORING && c->restore_left == 0)
        reconnected(c);
    else
        update_watch(c);
}

/* The timer went off during an attempt: it ran out of time, unless the
 * timer was asked for something else and time is left. */
static void attempt_timed_out(fw_client *c)
{
    fw_error err;
    if (c->broken.code != FW_OK) {
        attempt_failed(c, fwi_check_usable(c, &err), &err);
        return;
    }
    int64_t left = c->attempt_deadline_ms - fwi_now_ms();
    if (left > 0) {
        set_timer(c, (int)left);
        return;
    }
    fwi_set_error(&err, FW_DEADLINE_EXCEEDED, 0, "face-worker did not answer the reconnect's requests in time");
    attempt_failed(c, err.code, &err);
}

/* Sends m, which ends what the worker holds for a handle freed while the
 * worker was asked for it again. */
static int end_orphan(fw_client *c, int kind, uint64_t id, fw_error *err)
{
    ClientMessage m = FACEWORKER__V1__CLIENT_MESSAGE__INIT;
    Faceworker__V1__CloseSessionRequest close = FACEWORKER__V1__CLOSE_SESSION_REQUEST__INIT;
    Faceworker__V1__UnregisterBufferRequest unregister = FACEWORKER__V1__UNREGISTER_BUFFER_REQUEST__INIT;
    if (kind == CALL_REOPEN) {
        close.session_id = id;
        m.kind_case = FACEWORKER__V1__CLIENT_MESSAGE__KIND_CLOSE_SESSION;
        m.close_session = &close;
    } else {
        unregister.buffer_id = id;
        m.kind_case = FACEWORKER__V1__CLIENT_MESSAGE__KIND_UNREGISTER_BUFFER;
        m.unregister_buffer = &unregister;
    }
    return fwi_send_forget(c, &m, err);
}

/* The answer to one of an attempt's calls: the handle takes it, or, when
 * it was freed meanwhile, what the worker made for it is ended again. A
 * refusal fails the attempt, unless its handle is gone. */
static int restored(fw_client *c, struct call *call, WorkerMessage *m, fw_error *err)
{
    int expected = call->kind == CALL_REOPEN      ? FACEWORKER__V1__WORKER_MESSAGE__KIND_OPEN_SESSION
                   : call->kind == CALL_REREGISTER ? FACEWORKER__V1__WORKER_MESSAGE__KIND_REGISTER_BUFFER
                                                   : FACEWORKER__V1__WORKER_MESSAGE__KIND_SUBSCRIBE;
    bool wanted = call->session || call->sub || call->buffer;
    if (m->kind_case == FACEWORKER__V1__WORKER_MESSAGE__KIND_ERROR) {
        if (wanted && c->restore_failed.code == FW_OK)
            fwi_status_error(&c->restore_failed, m->error);
        faceworker__v1__worker_message__free_unpacked(m, NULL);
        return FW_OK;
    }
    if ((int)m->kind_case != expected)
        return fwi_unexpected_answer(c, m, fwi_message_kind_name(expected), err);
    int rc = FW_OK;
    switch (call->kind) {
    case CALL_REOPEN:
        if (call->session) {
            fwi_reopened(c, call->session, m);
            return FW_OK;
        }
        rc = end_orphan(c, CALL_REOPEN, m->open_session->session_id, err);
        break;
    case CALL_REREGISTER:
        if (call->buffer) {
            /* The descriptor goes over a second, short connection whose
             * exchange waits: no longer than the attempt has left. */
            int timeout = c->timeout_ms;
            int64_t left = c->attempt_deadline_ms - fwi_now_ms();
            c->timeout_ms = left > 1 ? (int)left : 1;
            fw_error why;
            if (fwi_registered_again(c, call->buffer, m, &why) != FW_OK && c->restore_failed.code == FW_OK)
                c->restore_failed = why;
            c->timeout_ms = timeout;
            return FW_OK;
        }
        rc = end_orphan(c, CALL_REREGISTER, m->register_buffer->buffer_id, err);
        break;
    default:
        if (call->sub) {
            fwi_resubscribed(call->sub, call->call_id, m);
            return FW_OK;
        }
        /* It streams until it is ended, as one given up on does. */
        rc = fwi_adopt_subscription(c, call->call_id, m->subscribe->subscription_id, err);
        break;
    }
    faceworker__v1__worker_message__free_unpacked(m, NULL);
    return rc;
}

int fwi_async_answer(fw_client *c, struct call *call, fw_error *err)
{
    if (call->kind == CALL_OPEN)
        return fwi_open_answered(c, call, err);
    WorkerMessage *m = call->answer;
    call->answer = NULL;
    if (c->restore_left > 0)
        c->restore_left--;
    int rc = restored(c, call, m, err);
    fwi_free_call(call);
    return rc;
}

/* Starts mending the connection: the frames it cut off become drops, told
 * before anything the new connection brings, and opens in flight fail. */
static int start_reconnect(fw_client *c, const fw_reconnect_options *options, fw_error *err)
{
    fail_opens(c, &c->broken, true);
    c->reconnect_options = *options;
    if (c->reconnect_options.max_delay_ms < 1)
        c->reconnect_options.max_delay_ms = 1;
    int deadline_ms = options->deadline_ms < 0 ? 0 : options->deadline_ms;
    c->reconnect_deadline_ms = fwi_now_ms() + deadline_ms;
    c->reconnect_delay_ms = options->initial_delay_ms < 1 ? 1 : options->initial_delay_ms;
    int rc = fwi_reconnect_begin(c, err);
    if (rc != FW_OK) {
        fwi_reconnect_give_up(c, err);
        dispatch(c);
        update_watch(c);
        return rc;
    }
    c->reconnect_pending = true;
    c->reconnect_phase = RECONNECT_WAITING;
    /* The loop lets go of the old socket before an attempt closes it. */
    update_watch(c);
    dispatch(c);
    attempt_now(c);
    return FW_OK;
}

int fwi_async_reconnect(fw_client *c, const fw_reconnect_options *options, fw_error *err)
{
    if (c->reconnect_pending)
        return FW_OK;
    int rc = start_reconnect(c, options, err);
    if (rc == FW_OK)
        fwi_clear_error(err);
    return rc;
}

/* The connection broke: mended under auto-reconnect, else told, once. */
static void broke(fw_client *c)
{
    c->break_handled = true;
    fw_error err = c->broken;
    if (fwi_auto_recovers(c)) {
        if (start_reconnect(c, &c->auto_options, &err) == FW_OK)
            return;
    } else {
        fail_opens(c, &err, false);
        dispatch(c);
    }
    update_watch(c);
    report(c, &err);
}

/* After the connection moved on: a new break is acted on, else the loop
 * is told what to watch now. */
static void settle(fw_client *c)
{
    if (c->broken.code != FW_OK && !c->break_handled)
        broke(c);
    else
        update_watch(c);
}

void fw_async_handle(fw_client *c, unsigned ready)
{
    if (!c)
        return;
    if (c->reconnect_pending) {
        if (c->reconnect_phase != RECONNECT_WAITING)
            attempt_progress(c, ready);
        return;
    }
    fw_error err;
    progress(c, ready, &err);
    dispatch(c);
    settle(c);
}

void fw_async_timeout(fw_client *c)
{
    if (!c)
        return;
    if (c->reconnect_pending) {
        if (c->reconnect_phase == RECONNECT_WAITING)
            attempt_now(c);
        else
            attempt_timed_out(c);
        return;
    }
    /* Answers a blocking call read past its own, still in the reader. */
    fw_error err;
    progress(c, 0, &err);
    dispatch(c);
    settle(c);
}

/* After a write that broke the connection, inside a handler perhaps: the
 * loop's timer acts on the break, outside it. Under auto-reconnect the
 * frame is in flight like the others the break cut off, and comes out as
 * a drop. */
static int after_write(fw_client *c, int rc, fw_error *err)
{
    if (rc == FW_OK || !c->async) {
        update_watch(c);
        return rc;
    }
    set_timer(c, 0);
    if (!fwi_auto_recovers(c))
        return rc;
    fwi_clear_error(err);
    return FW_OK;
}

int fwi_async_flush(fw_client *c, fw_error *err)
{
    size_t written;
    if (c->connecting == CONNECTED && fwi_flush(c, &written, err) != FW_OK)
        set_timer(c, 0);
    else
        update_watch(c);
    fwi_clear_error(err);
    return FW_OK;
}

int fwi_async_end(fw_client *c, ClientMessage *m, const void *handle, bool *told, fw_error *err)
{
    bool restoring = fwi_forget_handle(c, handle);
    bool held = c->reconnect_pending ? c->reconnect_phase == RECONNECT_RESTORING && !restoring
                                     : fwi_check_usable(c, NULL) == FW_OK;
    if (told)
        *told = held;
    if (!held) {
        fwi_clear_error(err);
        return FW_OK;
    }
    return fwi_send_forget(c, m, err);
}

void fwi_close_opens(fw_client *c)
{
    fw_error closed;
    fwi_set_error(&closed, FW_ERR_CLOSED, 0, "the client was closed before face-worker answered");
    fail_opens(c, &closed, false);
    for (struct pending_open *open = c->opens_done; open; open = open->next) {
        /* A session opened but not yet handed over is freed with the
         * client; a refusal already answered is told as it came. */
        if (open->session) {
            open->session = NULL;
            open->status = closed;
        }
    }
    while (c->opens_done) {
        struct pending_open *open = c->opens_done;
        c->opens_done = open->next;
        open->callback(c, NULL, &open->status, open->data);
        free(open);
    }
    c->opens_done_tail = NULL;
}

int fwi_send_nonblock(fw_session *s, const fw_frame *frame, fw_error *err)
{
    fw_client *c = s->client;
    if (c->reconnect_pending)
        return fwi_set_error(err, FW_UNAVAILABLE, 0,
                             "face-worker went away and the client is connecting again; the frame was not sent");
    if (c->broken.code != FW_OK)
        return fwi_check_usable(c, err);
    int rc = fwi_queue_frame(s, frame, err);
    if (rc != FW_OK)
        return rc;
    size_t written;
    if (c->connecting == CONNECTED)
        rc = fwi_flush(c, &written, err);
    rc = after_write(c, rc, err);
    if (rc == FW_OK)
        fwi_clear_error(err);
    return rc;
}

int fw_send_nonblock(fw_session *s, const fw_frame *frame, fw_error *err)
{
    if (!s)
        return fwi_set_error(err, FW_ERR_USAGE, 0, "fw_send_nonblock: no session");
    return fwi_send_nonblock(s, frame, err);
}

int fwi_send_forget(fw_client *c, ClientMessage *m, fw_error *err)
{
    struct call *forgotten = calloc(1, sizeof *forgotten);
    if (!forgotten)
        return fwi_set_error(err, FW_ERR_NOMEM, 0, "out of memory for a call");
    m->call_id = c->next_call_id++;
    int rc = fwi_writer_append(&c->writer, m, err);
    if (rc != FW_OK) {
        free(forgotten);
        return rc;
    }
    forgotten->call_id = m->call_id;
    forgotten->next = c->in_flight;
    c->in_flight = forgotten;
    size_t written;
    rc = c->connecting == CONNECTED ? fwi_flush(c, &written, err) : FW_OK;
    return after_write(c, rc, err);
}

/* Copies a struct the caller sized: the members its version has, zeros
 * for those it does not know. */
static int copy_sized(void *to, size_t to_size, const void *from, size_t from_size, const char *what, fw_error *err)
{
    if (from_size < sizeof(size_t))
        return fwi_set_error(err, FW_ERR_USAGE, 0, "%s: size is %zu; set it to sizeof the struct", what, from_size);
    memset(to, 0, to_size);
    memcpy(to, from, from_size < to_size ? from_size : to_size);
    return FW_OK;
}

/* Whether something waits to be handed out without the socket being
 * readable again: events already routed, or bytes a blocking call read
 * past its answer. */
static bool events_waiting(const fw_client *c)
{
    size_t expected;
    if (fwi_reader_unparsed(&c->reader, &expected) > 0)
        return true;
    for (const fw_session *s = c->sessions; s; s = s->next)
        if (s->events_head || s->notice_due)
            return true;
    for (const fw_subscription *sub = c->subscriptions; sub; sub = sub->next)
        if (sub->head)
            return true;
    return false;
}

int fw_async_start(fw_client *c, const fw_async_handlers *handlers, fw_error *err)
{
    if (!c || !handlers)
        return fwi_set_error(err, FW_ERR_USAGE, 0, "fw_async_start: no client or no handlers");
    int rc = copy_sized(&c->handlers, sizeof c->handlers, handlers, handlers->size, "fw_async_handlers", err);
    if (rc != FW_OK)
        return rc;
    c->async = true;
    if (events_waiting(c))
        set_timer(c, 0);
    update_watch(c);
    fwi_clear_error(err);
    return FW_OK;
}

int fw_async_attach(fw_client *c, const fw_loop_hooks *hooks, fw_error *err)
{
    if (!c || !hooks)
        return fwi_set_error(err, FW_ERR_USAGE, 0, "fw_async_attach: no client or no hooks");
    int rc = copy_sized(&c->hooks, sizeof c->hooks, hooks, hooks->size, "fw_loop_hooks", err);
    if (rc != FW_OK)
        return rc;
    c->hooked = true;
    c->watched_fd = -1;
    c->watched_wants = 0;
    update_watch(c);
    if (c->async && (events_waiting(c) || (c->broken.code != FW_OK && !c->break_handled)))
        set_timer(c, 0);
    fwi_clear_error(err);
    return FW_OK;
}
