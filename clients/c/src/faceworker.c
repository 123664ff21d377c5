/*
 * libfaceworker: the connection, the calls and the result accessors.
 *
 * One socket per client, non-blocking, driven by poll(2) so that every wait
 * can honour a deadline. Incoming bytes collect in a read buffer; whole
 * messages are cut from it and routed by call_id: the answer a blocking call
 * waits for is returned to it, answers to frames sent with fw_send() are
 * queued on their session until fw_poll() takes them.
 */
#define _POSIX_C_SOURCE 200809L

#include "faceworker.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "faceworker/v1/faceworker.pb-c.h"

typedef Faceworker__V1__ClientMessage ClientMessage;
typedef Faceworker__V1__WorkerMessage WorkerMessage;

/* The worker's answers are small (a face with a full mesh is about 10 KB);
 * a larger length in a header means the stream is corrupt, and refusing it
 * before allocating keeps a broken peer from exhausting memory. */
#define MAX_MESSAGE_BYTES (64u * 1024u * 1024u)
#define HEADER_BYTES 5
#define READ_CHUNK (64u * 1024u)

/* A call whose answer has not been handed to the user yet: in flight on the
 * client's list, then, once answered, queued on its session. */
struct call {
    struct call *next;
    uint64_t call_id;
    fw_session *session; /* NULL once abandoned: its answer is discarded */
    int64_t timestamp_ms;
    WorkerMessage *answer;
};

struct fw_session {
    fw_client *client;
    fw_session *next;
    uint64_t id;
    fw_session_options options;
    size_t pending;
    struct call *events_head;
    struct call *events_tail;
};

struct fw_client {
    int fd;
    int timeout_ms;
    int busy_poll_us;
    uint64_t next_call_id;
    fw_session *sessions;
    struct call *in_flight;
    uint8_t *rbuf;
    size_t roff, rlen, rcap; /* unparsed bytes are rbuf[roff, rlen) */
    uint8_t *wbuf;
    size_t wcap;
    fw_error broken;   /* code != FW_OK once the connection is unusable */
    fw_error farewell; /* the last status the worker sent under call_id 0 */
};

/* ------------------------------------------------------------------------
 * Errors
 * ------------------------------------------------------------------------ */

static const char *const grpc_names[] = {
    "OK",           "CANCELLED",         "UNKNOWN",   "INVALID_ARGUMENT",   "DEADLINE_EXCEEDED",
    "NOT_FOUND",    "ALREADY_EXISTS",    "PERMISSION_DENIED", "RESOURCE_EXHAUSTED",
    "FAILED_PRECONDITION", "ABORTED",    "OUT_OF_RANGE", "UNIMPLEMENTED",   "INTERNAL",
    "UNAVAILABLE",  "DATA_LOSS",         "UNAUTHENTICATED",
};

static const char *const local_names[] = {
    "ERR_USAGE", "ERR_NOMEM", "ERR_CONNECT", "ERR_IO", "ERR_CLOSED", "ERR_PROTOCOL", "ERR_DROPPED",
};

const char *fw_status_name(int code)
{
    if (code >= 0 && code < (int)(sizeof grpc_names / sizeof grpc_names[0]))
        return grpc_names[code];
    if (code < 0 && -code <= (int)(sizeof local_names / sizeof local_names[0]))
        return local_names[-code - 1];
    return "?";
}

static int verror(fw_error *err, int code, int sys_errno, const char *fmt, va_list ap)
{
    if (err) {
        err->code = code;
        err->sys_errno = sys_errno;
        vsnprintf(err->message, sizeof err->message, fmt, ap);
    }
    return code;
}

__attribute__((format(printf, 4, 5))) static int set_error(fw_error *err, int code, int sys_errno,
                                                           const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    verror(err, code, sys_errno, fmt, ap);
    va_end(ap);
    return code;
}

static void clear_error(fw_error *err)
{
    if (err) {
        err->code = FW_OK;
        err->sys_errno = 0;
        err->message[0] = '\0';
    }
}

static void copy_error(fw_error *err, const fw_error *from)
{
    if (err)
        *err = *from;
}

/* Marks the connection unusable; every later call reports the same error. */
__attribute__((format(printf, 5, 6))) static int break_connection(fw_client *c, fw_error *err, int code,
                                                                  int sys_errno, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    verror(&c->broken, code, sys_errno, fmt, ap);
    va_end(ap);
    copy_error(err, &c->broken);
    return code;
}

static int check_usable(const fw_client *c, fw_error *err)
{
    if (c->broken.code == FW_OK)
        return FW_OK;
    copy_error(err, &c->broken);
    return c->broken.code;
}

/* gRPC maps codes it does not know to UNKNOWN; so does this client. */
static int status_code(const Faceworker__V1__Status *status)
{
    int code = (int)status->code;
    return code >= 1 && code <= 16 ? code : FW_UNKNOWN;
}

static int status_error(fw_error *err, const Faceworker__V1__Status *status)
{
    return set_error(err, status_code(status), 0, "%s", status->message ? status->message : "");
}

/* ------------------------------------------------------------------------
 * Time
 * ------------------------------------------------------------------------ */

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* A deadline is a CLOCK_MONOTONIC time in ns, or -1 for none. */
static int64_t deadline_after(int timeout_ms)
{
    return timeout_ms < 0 ? -1 : now_ns() + (int64_t)timeout_ms * 1000000;
}

static int remaining_ms(int64_t deadline)
{
    if (deadline < 0)
        return -1;
    int64_t left = deadline - now_ns();
    if (left <= 0)
        return 0;
    int64_t ms = (left + 999999) / 1000000;
    return ms > INT_MAX ? INT_MAX : (int)ms;
}

/* poll(2) on the client's socket, restarted after signals; returns the
 * revents, 0 on timeout, or -1 with errno set. Within the busy-poll window
 * it only checks, never sleeps. */
static int wait_socket(fw_client *c, short events, int64_t deadline)
{
    if (c->busy_poll_us > 0) {
        int64_t until = now_ns() + (int64_t)c->busy_poll_us * 1000;
        if (deadline >= 0 && deadline < until)
            until = deadline;
        do {
            struct pollfd p = {.fd = c->fd, .events = events};
            int n = poll(&p, 1, 0);
            if (n > 0)
                return p.revents;
            if (n < 0 && errno != EINTR)
                return -1;
        } while (now_ns() < until);
    }
    for (;;) {
        struct pollfd p = {.fd = c->fd, .events = events};
        int n = poll(&p, 1, remaining_ms(deadline));
        if (n > 0)
            return p.revents;
        if (n == 0)
            return 0;
        if (errno != EINTR)
            return -1;
    }
}

/* ------------------------------------------------------------------------
 * Reading and writing messages
 * ------------------------------------------------------------------------ */

static int closed_error(fw_client *c, fw_error *err)
{
    if (c->farewell.code != FW_OK)
        return break_connection(c, err, FW_ERR_CLOSED, 0, "face-worker closed the connection: %s: %s",
                                fw_status_name(c->farewell.code), c->farewell.message);
    return break_connection(c, err, FW_ERR_CLOSED, 0, "face-worker closed the connection");
}

/* Makes room for `need` unparsed bytes in the read buffer. */
static int reserve_read(fw_client *c, size_t need, fw_error *err)
{
    if (c->rcap - c->roff >= need)
        return FW_OK;
    if (c->roff > 0) {
        memmove(c->rbuf, c->rbuf + c->roff, c->rlen - c->roff);
        c->rlen -= c->roff;
        c->roff = 0;
    }
    if (c->rcap >= need)
        return FW_OK;
    uint8_t *grown = realloc(c->rbuf, need);
    if (!grown)
        return break_connection(c, err, FW_ERR_NOMEM, 0, "out of memory for a %zu-byte message", need);
    c->rbuf = grown;
    c->rcap = need;
    return FW_OK;
}

/* Reads whatever the socket holds now into the read buffer. */
static int fill_read_buffer(fw_client *c, fw_error *err)
{
    size_t unparsed = c->rlen - c->roff;
    if (c->rlen == c->rcap || c->rcap - c->rlen < READ_CHUNK / 4) {
        int rc = reserve_read(c, unparsed + READ_CHUNK, err);
        if (rc != FW_OK)
            return rc;
    }
    for (;;) {
        ssize_t n = recv(c->fd, c->rbuf + c->rlen, c->rcap - c->rlen, 0);
        if (n > 0) {
            c->rlen += (size_t)n;
            return FW_OK;
        }
        if (n == 0)
            return closed_error(c, err);
        if (errno == EINTR)
            continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK)
            return FW_OK;
        if (errno == ECONNRESET)
            return closed_error(c, err);
        return break_connection(c, err, FW_ERR_IO, errno, "reading from face-worker: %s", strerror(errno));
    }
}

/* Cuts one whole message from the read buffer, if one is there. */
static int parse_message(fw_client *c, WorkerMessage **out, fw_error *err)
{
    *out = NULL;
    size_t avail = c->rlen - c->roff;
    if (avail < HEADER_BYTES)
        return FW_OK;
    const uint8_t *h = c->rbuf + c->roff;
    if (h[0] != 0)
        return break_connection(c, err, FW_ERR_PROTOCOL, 0,
                                "face-worker sent a message with flag byte %u (only 0, uncompressed, is valid)",
                                h[0]);
    uint32_t len = (uint32_t)h[1] << 24 | (uint32_t)h[2] << 16 | (uint32_t)h[3] << 8 | h[4];
    if (len > MAX_MESSAGE_BYTES)
        return break_connection(c, err, FW_ERR_PROTOCOL, 0,
                                "face-worker sent a %u-byte message; this client accepts at most %u", len,
                                MAX_MESSAGE_BYTES);
    if (avail < HEADER_BYTES + (size_t)len)
        return reserve_read(c, HEADER_BYTES + (size_t)len, err);
    WorkerMessage *m = faceworker__v1__worker_message__unpack(NULL, len, h + HEADER_BYTES);
    if (!m)
        return break_connection(c, err, FW_ERR_PROTOCOL, 0,
                                "face-worker sent %u bytes that are not a WorkerMessage", len);
    c->roff += HEADER_BYTES + (size_t)len;
    if (c->roff == c->rlen)
        c->roff = c->rlen = 0;
    *out = m;
    return FW_OK;
}

/* Returns the next message from the worker, or FW_OK with *out NULL when
 * none arrived before the deadline. */
static int receive_message(fw_client *c, int64_t deadline, WorkerMessage **out, fw_error *err)
{
    for (;;) {
        int rc = parse_message(c, out, err);
        if (rc != FW_OK || *out)
            return rc;
        int ready = wait_socket(c, POLLIN, deadline);
        if (ready == 0)
            return FW_OK;
        if (ready < 0)
            return break_connection(c, err, FW_ERR_IO, errno, "waiting for face-worker: %s", strerror(errno));
        rc = fill_read_buffer(c, err);
        if (rc != FW_OK)
            return rc;
    }
}

/* Writes all of buf. While the socket is full it keeps reading, so that a
 * worker blocked on sending answers cannot deadlock against this write. */
static int write_all(fw_client *c, const uint8_t *buf, size_t len, int64_t deadline, fw_error *err)
{
    size_t done = 0;
    while (done < len) {
        ssize_t n = send(c->fd, buf + done, len - done, MSG_NOSIGNAL);
        if (n >= 0) {
            done += (size_t)n;
            continue;
        }
        if (errno == EINTR)
            continue;
        if (errno == EPIPE || errno == ECONNRESET)
            return closed_error(c, err);
        if (errno != EAGAIN && errno != EWOULDBLOCK)
            return break_connection(c, err, FW_ERR_IO, errno, "writing to face-worker: %s", strerror(errno));
        int ready = wait_socket(c, POLLIN | POLLOUT, deadline);
        if (ready < 0)
            return break_connection(c, err, FW_ERR_IO, errno, "waiting for face-worker: %s", strerror(errno));
        if (ready == 0) {
            if (done == 0)
                return set_error(err, FW_DEADLINE_EXCEEDED, 0,
                                 "face-worker did not accept the request in time");
            /* Half a message on the wire cannot be taken back. */
            return break_connection(c, err, FW_ERR_IO, 0,
                                    "timed out after writing %zu of %zu bytes to face-worker", done, len);
        }
        if (ready & POLLIN) {
            int rc = fill_read_buffer(c, err);
            if (rc != FW_OK)
                return rc;
        }
    }
    return FW_OK;
}

static int send_message(fw_client *c, ClientMessage *m, int64_t deadline, fw_error *err)
{
    size_t size = protobuf_c_message_get_packed_size(&m->base);
    if (size > UINT32_MAX - HEADER_BYTES)
        return set_error(err, FW_ERR_USAGE, 0, "request of %zu bytes is too large for the wire format", size);
    size_t total = HEADER_BYTES + size;
    if (c->wcap < total) {
        uint8_t *grown = realloc(c->wbuf, total);
        if (!grown)
            return set_error(err, FW_ERR_NOMEM, 0, "out of memory for a %zu-byte request", total);
        c->wbuf = grown;
        c->wcap = total;
    }
    c->wbuf[0] = 0;
    c->wbuf[1] = (uint8_t)(size >> 24);
    c->wbuf[2] = (uint8_t)(size >> 16);
    c->wbuf[3] = (uint8_t)(size >> 8);
    c->wbuf[4] = (uint8_t)size;
    protobuf_c_message_pack(&m->base, c->wbuf + HEADER_BYTES);
    return write_all(c, c->wbuf, total, deadline, err);
}

/* ------------------------------------------------------------------------
 * Routing answers
 * ------------------------------------------------------------------------ */

static void free_call(struct call *call)
{
    if (call->answer)
        faceworker__v1__worker_message__free_unpacked(call->answer, NULL);
    free(call);
}

/* Takes a message that answers no blocking call: remembers a connection
 * status, queues a frame's answer on its session, or drops the answer to an
 * abandoned call. */
static int route(fw_client *c, WorkerMessage *m, fw_error *err)
{
    if (m->call_id == 0) {
        if (m->kind_case == FACEWORKER__V1__WORKER_MESSAGE__KIND_ERROR)
            status_error(&c->farewell, m->error);
        faceworker__v1__worker_message__free_unpacked(m, NULL);
        return FW_OK;
    }
    struct call **link = &c->in_flight;
    while (*link && (*link)->call_id != m->call_id)
        link = &(*link)->next;
    struct call *call = *link;
    if (!call) {
        unsigned long long id = (unsigned long long)m->call_id;
        faceworker__v1__worker_message__free_unpacked(m, NULL);
        return break_connection(c, err, FW_ERR_PROTOCOL, 0,
                                "face-worker answered call %llu, which this client is not waiting for", id);
    }
    *link = call->next;
    call->next = NULL;
    call->answer = m;
    fw_session *s = call->session;
    if (!s) {
        free_call(call);
        return FW_OK;
    }
    if (s->events_tail)
        s->events_tail->next = call;
    else
        s->events_head = call;
    s->events_tail = call;
    return FW_OK;
}

/* Sends m as a new call and waits for its answer, routing every other
 * message meanwhile. A worker Status comes back as its code; on FW_OK,
 * *answer is the caller's to free. `expected` is the answer's kind, or
 * KIND__NOT_SET to accept any. */
static int call_worker(fw_client *c, ClientMessage *m, int expected, WorkerMessage **answer, fw_error *err)
{
    *answer = NULL;
    int rc = check_usable(c, err);
    if (rc != FW_OK)
        return rc;
    m->call_id = c->next_call_id++;
    int64_t deadline = deadline_after(c->timeout_ms);
    rc = send_message(c, m, deadline, err);
    if (rc != FW_OK)
        return rc;
    for (;;) {
        WorkerMessage *got;
        rc = receive_message(c, deadline, &got, err);
        if (rc != FW_OK)
            return rc;
        if (!got) {
            struct call *abandoned = calloc(1, sizeof *abandoned);
            if (!abandoned)
                return break_connection(c, err, FW_ERR_NOMEM, 0,
                                        "out of memory while giving up on call %llu",
                                        (unsigned long long)m->call_id);
            abandoned->call_id = m->call_id;
            abandoned->next = c->in_flight;
            c->in_flight = abandoned;
            return set_error(err, FW_DEADLINE_EXCEEDED, 0, "no answer from face-worker within %d ms",
                             c->timeout_ms);
        }
        if (got->call_id != m->call_id) {
            rc = route(c, got, err);
            if (rc != FW_OK)
                return rc;
            continue;
        }
        if (got->kind_case == FACEWORKER__V1__WORKER_MESSAGE__KIND_ERROR) {
            rc = status_error(err, got->error);
            faceworker__v1__worker_message__free_unpacked(got, NULL);
            return rc;
        }
        if (expected != FACEWORKER__V1__WORKER_MESSAGE__KIND__NOT_SET && (int)got->kind_case != expected) {
            int kind = (int)got->kind_case;
            faceworker__v1__worker_message__free_unpacked(got, NULL);
            return break_connection(c, err, FW_ERR_PROTOCOL, 0,
                                    "face-worker answered with message kind %d where %d was due", kind,
                                    expected);
        }
        *answer = got;
        clear_error(err);
        return FW_OK;
    }
}

/* ------------------------------------------------------------------------
 * Connections
 * ------------------------------------------------------------------------ */

int fw_default_socket_path(char *buf, size_t size)
{
    /* The worker's own rule: a relative XDG_RUNTIME_DIR is ignored. */
    const char *dir = getenv("XDG_RUNTIME_DIR");
    int n;
    if (dir && dir[0] == '/')
        n = snprintf(buf, size, "%s%sfaceworker.sock", dir, dir[strlen(dir) - 1] == '/' ? "" : "/");
    else
        n = snprintf(buf, size, "/tmp/faceworker-%u.sock", (unsigned)geteuid());
    if (n < 0 || (size_t)n >= size) {
        if (size > 0)
            buf[0] = '\0';
        return -1;
    }
    return n;
}

/* connect(2), finishing a connect interrupted by a signal. */
static int connect_socket(int fd, const struct sockaddr_un *addr)
{
    if (connect(fd, (const struct sockaddr *)addr, sizeof *addr) == 0)
        return 0;
    if (errno != EINTR)
        return -1;
    struct pollfd p = {.fd = fd, .events = POLLOUT};
    while (poll(&p, 1, -1) < 0)
        if (errno != EINTR)
            return -1;
    int so_error = 0;
    socklen_t len = sizeof so_error;
    if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &so_error, &len) < 0)
        return -1;
    if (so_error != 0) {
        errno = so_error;
        return -1;
    }
    return 0;
}

fw_client *fw_connect(const char *socket_path, fw_error *err)
{
    char default_path[sizeof(((struct sockaddr_un *)0)->sun_path)];
    if (!socket_path) {
        if (fw_default_socket_path(default_path, sizeof default_path) < 0) {
            set_error(err, FW_ERR_USAGE, 0, "the default socket path does not fit in a Unix socket address");
            return NULL;
        }
        socket_path = default_path;
    }
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    size_t len = strlen(socket_path);
    if (len == 0 || len >= sizeof addr.sun_path) {
        set_error(err, FW_ERR_USAGE, 0, "socket path must have 1 to %zu bytes, not %zu",
                  sizeof addr.sun_path - 1, len);
        return NULL;
    }
    memcpy(addr.sun_path, socket_path, len + 1);

    fw_client *c = calloc(1, sizeof *c);
    if (!c) {
        set_error(err, FW_ERR_NOMEM, 0, "out of memory for a client");
        return NULL;
    }
    c->timeout_ms = -1;
    c->next_call_id = 1;
    c->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (c->fd < 0) {
        set_error(err, FW_ERR_IO, errno, "socket: %s", strerror(errno));
        free(c);
        return NULL;
    }
    if (connect_socket(c->fd, &addr) < 0) {
        int e = errno;
        set_error(err, FW_ERR_CONNECT, e, "cannot connect to face-worker at %s: %s (is face-worker running?)",
                  socket_path, strerror(e));
        close(c->fd);
        free(c);
        return NULL;
    }
    int flags = fcntl(c->fd, F_GETFL);
    if (flags < 0 || fcntl(c->fd, F_SETFL, flags | O_NONBLOCK) < 0) {
        set_error(err, FW_ERR_IO, errno, "fcntl: %s", strerror(errno));
        close(c->fd);
        free(c);
        return NULL;
    }
    clear_error(err);
    return c;
}

static void free_session(fw_session *s)
{
    struct call *e = s->events_head;
    while (e) {
        struct call *next = e->next;
        free_call(e);
        e = next;
    }
    free(s);
}

void fw_close(fw_client *c)
{
    if (!c)
        return;
    close(c->fd);
    struct call *call = c->in_flight;
    while (call) {
        struct call *next = call->next;
        free_call(call);
        call = next;
    }
    fw_session *s = c->sessions;
    while (s) {
        fw_session *next = s->next;
        free_session(s);
        s = next;
    }
    free(c->rbuf);
    free(c->wbuf);
    free(c);
}

void fw_set_timeout(fw_client *c, int timeout_ms)
{
    c->timeout_ms = timeout_ms < 0 ? -1 : timeout_ms;
}

void fw_set_busy_poll(fw_client *c, int busy_poll_us)
{
    c->busy_poll_us = busy_poll_us < 0 ? 0 : busy_poll_us > FW_BUSY_POLL_MAX_US ? FW_BUSY_POLL_MAX_US : busy_poll_us;
}

int fw_ping(fw_client *c, const void *payload, size_t len, fw_error *err)
{
    if (!c || (len > 0 && !payload))
        return set_error(err, FW_ERR_USAGE, 0, "fw_ping: no client, or a length without a payload");
    Faceworker__V1__PingRequest ping = FACEWORKER__V1__PING_REQUEST__INIT;
    ping.payload.len = len;
    ping.payload.data = (uint8_t *)(uintptr_t)payload; /* only read while packing */
    ClientMessage m = FACEWORKER__V1__CLIENT_MESSAGE__INIT;
    m.kind_case = FACEWORKER__V1__CLIENT_MESSAGE__KIND_PING;
    m.ping = &ping;
    WorkerMessage *answer;
    int rc = call_worker(c, &m, FACEWORKER__V1__WORKER_MESSAGE__KIND_PING, &answer, err);
    if (rc != FW_OK)
        return rc;
    const ProtobufCBinaryData *echo = &answer->ping->payload;
    bool same = echo->len == len && (len == 0 || memcmp(echo->data, payload, len) == 0);
    faceworker__v1__worker_message__free_unpacked(answer, NULL);
    if (!same)
        return break_connection(c, err, FW_ERR_PROTOCOL, 0, "face-worker's ping echo differs from the payload");
    return FW_OK;
}

/* ------------------------------------------------------------------------
 * Sessions
 * ------------------------------------------------------------------------ */

void fw_session_options_init(fw_session_options *o)
{
    *o = (fw_session_options){
        .running_mode = FW_MODE_IMAGE,
        .performance_mode = FW_PERFORMANCE_FAST,
        .min_face_size = 0.1f,
        .min_detection_confidence = 0.5f,
        .min_suppression_threshold = 0.3f,
        .num_faces = 1,
        .min_face_presence_confidence = 0.5f,
        .min_tracking_confidence = 0.5f,
        .detector_interval_frames = 5,
        .max_missed_frames = 3,
    };
}

/* Every optional field is sent as present, so the worker applies exactly
 * what the caller holds, defaults included. */
static void options_to_proto(const fw_session_options *o, Faceworker__V1__SessionOptions *p)
{
    p->running_mode = (Faceworker__V1__RunningMode)o->running_mode;
    p->performance_mode = (Faceworker__V1__PerformanceMode)o->performance_mode;
    p->landmark_mode = o->landmarks ? FACEWORKER__V1__LANDMARK_MODE__LANDMARK_MODE_ALL
                                    : FACEWORKER__V1__LANDMARK_MODE__LANDMARK_MODE_NONE;
    p->contour_mode = o->contours ? FACEWORKER__V1__CONTOUR_MODE__CONTOUR_MODE_ALL
                                  : FACEWORKER__V1__CONTOUR_MODE__CONTOUR_MODE_NONE;
    p->classification_mode = o->classification ? FACEWORKER__V1__CLASSIFICATION_MODE__CLASSIFICATION_MODE_ALL
                                               : FACEWORKER__V1__CLASSIFICATION_MODE__CLASSIFICATION_MODE_NONE;
    p->tracking_enabled = o->tracking_enabled;
    p->output_face_mesh = o->output_face_mesh;
    p->output_transformation_matrix = o->output_transformation_matrix;
    p->detector_interval_frames = o->detector_interval_frames;
    p->optional_min_face_size_case = FACEWORKER__V1__SESSION_OPTIONS__OPTIONAL_MIN_FACE_SIZE_MIN_FACE_SIZE;
    p->min_face_size = o->min_face_size;
    p->optional_min_detection_confidence_case =
        FACEWORKER__V1__SESSION_OPTIONS__OPTIONAL_MIN_DETECTION_CONFIDENCE_MIN_DETECTION_CONFIDENCE;
    p->min_detection_confidence = o->min_detection_confidence;
    p->optional_min_suppression_threshold_case =
        FACEWORKER__V1__SESSION_OPTIONS__OPTIONAL_MIN_SUPPRESSION_THRESHOLD_MIN_SUPPRESSION_THRESHOLD;
    p->min_suppression_threshold = o->min_suppression_threshold;
    p->optional_num_faces_case = FACEWORKER__V1__SESSION_OPTIONS__OPTIONAL_NUM_FACES_NUM_FACES;
    p->num_faces = o->num_faces;
    p->optional_min_face_presence_confidence_case =
        FACEWORKER__V1__SESSION_OPTIONS__OPTIONAL_MIN_FACE_PRESENCE_CONFIDENCE_MIN_FACE_PRESENCE_CONFIDENCE;
    p->min_face_presence_confidence = o->min_face_presence_confidence;
    p->optional_min_tracking_confidence_case =
        FACEWORKER__V1__SESSION_OPTIONS__OPTIONAL_MIN_TRACKING_CONFIDENCE_MIN_TRACKING_CONFIDENCE;
    p->min_tracking_confidence = o->min_tracking_confidence;
    p->optional_max_missed_frames_case = FACEWORKER__V1__SESSION_OPTIONS__OPTIONAL_MAX_MISSED_FRAMES_MAX_MISSED_FRAMES;
    p->max_missed_frames = o->max_missed_frames;
}

/* The worker's echo; a field it left unset keeps the documented default. */
static void options_from_proto(const Faceworker__V1__SessionOptions *p, fw_session_options *o)
{
    fw_session_options_init(o);
    o->running_mode = (fw_running_mode)p->running_mode;
    o->performance_mode = (fw_performance_mode)p->performance_mode;
    o->landmarks = p->landmark_mode == FACEWORKER__V1__LANDMARK_MODE__LANDMARK_MODE_ALL;
    o->contours = p->contour_mode == FACEWORKER__V1__CONTOUR_MODE__CONTOUR_MODE_ALL;
    o->classification = p->classification_mode == FACEWORKER__V1__CLASSIFICATION_MODE__CLASSIFICATION_MODE_ALL;
    o->tracking_enabled = p->tracking_enabled;
    o->output_face_mesh = p->output_face_mesh;
    o->output_transformation_matrix = p->output_transformation_matrix;
    if (p->detector_interval_frames != 0) /* 0 stands for the default */
        o->detector_interval_frames = p->detector_interval_frames;
    if (p->optional_min_face_size_case)
        o->min_face_size = p->min_face_size;
    if (p->optional_min_detection_confidence_case)
        o->min_detection_confidence = p->min_detection_confidence;
    if (p->optional_min_suppression_threshold_case)
        o->min_suppression_threshold = p->min_suppression_threshold;
    if (p->optional_num_faces_case)
        o->num_faces = p->num_faces;
    if (p->optional_min_face_presence_confidence_case)
        o->min_face_presence_confidence = p->min_face_presence_confidence;
    if (p->optional_min_tracking_confidence_case)
        o->min_tracking_confidence = p->min_tracking_confidence;
    if (p->optional_max_missed_frames_case)
        o->max_missed_frames = p->max_missed_frames;
}

fw_session *fw_open_session(fw_client *c, const fw_session_options *options, fw_error *err)
{
    if (!c) {
        set_error(err, FW_ERR_USAGE, 0, "fw_open_session: no client");
        return NULL;
    }
    fw_session_options defaults;
    if (!options) {
        fw_session_options_init(&defaults);
        options = &defaults;
    }
    /* Allocated first: a session the worker opened but this client could
     * not hold would live on unseen until the connection closes. */
    fw_session *s = calloc(1, sizeof *s);
    if (!s) {
        set_error(err, FW_ERR_NOMEM, 0, "out of memory for a session");
        return NULL;
    }
    Faceworker__V1__SessionOptions po = FACEWORKER__V1__SESSION_OPTIONS__INIT;
    options_to_proto(options, &po);
    Faceworker__V1__OpenSessionRequest req = FACEWORKER__V1__OPEN_SESSION_REQUEST__INIT;
    req.options = &po;
    ClientMessage m = FACEWORKER__V1__CLIENT_MESSAGE__INIT;
    m.kind_case = FACEWORKER__V1__CLIENT_MESSAGE__KIND_OPEN_SESSION;
    m.open_session = &req;
    WorkerMessage *answer;
    if (call_worker(c, &m, FACEWORKER__V1__WORKER_MESSAGE__KIND_OPEN_SESSION, &answer, err) != FW_OK) {
        free(s);
        return NULL;
    }
    s->client = c;
    s->id = answer->open_session->session_id;
    if (answer->open_session->options)
        options_from_proto(answer->open_session->options, &s->options);
    else
        s->options = *options;
    faceworker__v1__worker_message__free_unpacked(answer, NULL);
    s->next = c->sessions;
    c->sessions = s;
    return s;
}

void fw_session_get_options(const fw_session *s, fw_session_options *out)
{
    *out = s->options;
}

uint64_t fw_session_id(const fw_session *s)
{
    return s->id;
}

size_t fw_session_pending(const fw_session *s)
{
    return s->pending;
}

static int session_call(fw_session *s, ClientMessage *m, int expected, fw_error *err)
{
    WorkerMessage *answer;
    int rc = call_worker(s->client, m, expected, &answer, err);
    if (rc == FW_OK)
        faceworker__v1__worker_message__free_unpacked(answer, NULL);
    return rc;
}

int fw_close_session(fw_session *s, fw_error *err)
{
    if (!s) {
        clear_error(err);
        return FW_OK;
    }
    fw_client *c = s->client;
    Faceworker__V1__CloseSessionRequest req = FACEWORKER__V1__CLOSE_SESSION_REQUEST__INIT;
    req.session_id = s->id;
    ClientMessage m = FACEWORKER__V1__CLIENT_MESSAGE__INIT;
    m.kind_case = FACEWORKER__V1__CLIENT_MESSAGE__KIND_CLOSE_SESSION;
    m.close_session = &req;
    int rc = session_call(s, &m, FACEWORKER__V1__WORKER_MESSAGE__KIND_CLOSE_SESSION, err);
    /* Answers still to come for this session are no one's any more. */
    for (struct call *call = c->in_flight; call; call = call->next)
        if (call->session == s)
            call->session = NULL;
    for (fw_session **link = &c->sessions; *link; link = &(*link)->next) {
        if (*link == s) {
            *link = s->next;
            break;
        }
    }
    free_session(s);
    return rc;
}

int fw_reset_session(fw_session *s, fw_error *err)
{
    if (!s)
        return set_error(err, FW_ERR_USAGE, 0, "fw_reset_session: no session");
    Faceworker__V1__ResetSessionRequest req = FACEWORKER__V1__RESET_SESSION_REQUEST__INIT;
    req.session_id = s->id;
    ClientMessage m = FACEWORKER__V1__CLIENT_MESSAGE__INIT;
    m.kind_case = FACEWORKER__V1__CLIENT_MESSAGE__KIND_RESET_SESSION;
    m.reset_session = &req;
    return session_call(s, &m, FACEWORKER__V1__WORKER_MESSAGE__KIND_RESET_SESSION, err);
}

/* ------------------------------------------------------------------------
 * Frames
 * ------------------------------------------------------------------------ */

/* The request for a frame; it points into the caller's pixels, which are
 * only read while packing. */
struct frame_request {
    ClientMessage message;
    Faceworker__V1__ProcessFrameRequest process;
    Faceworker__V1__Frame frame;
    Faceworker__V1__RawImage raw;
};

static int build_frame(const fw_session *s, const fw_frame *f, struct frame_request *r, fw_error *err)
{
    if (!f)
        return set_error(err, FW_ERR_USAGE, 0, "no frame");
    if ((f->jpeg != NULL) == (f->pixels != NULL))
        return set_error(err, FW_ERR_USAGE, 0, "a frame needs exactly one of jpeg and pixels");
    faceworker__v1__client_message__init(&r->message);
    faceworker__v1__process_frame_request__init(&r->process);
    faceworker__v1__frame__init(&r->frame);
    faceworker__v1__raw_image__init(&r->raw);
    if (f->jpeg) {
        r->frame.image_case = FACEWORKER__V1__FRAME__IMAGE_JPEG;
        r->frame.jpeg.data = (uint8_t *)(uintptr_t)f->jpeg;
        r->frame.jpeg.len = f->jpeg_len;
    } else {
        r->raw.format = (Faceworker__V1__PixelFormat)f->format;
        r->raw.width = f->width;
        r->raw.height = f->height;
        r->raw.row_stride = f->row_stride;
        r->raw.data.data = (uint8_t *)(uintptr_t)f->pixels;
        r->raw.data.len = f->pixels_len;
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
    default:
        return "no reason given";
    }
}

int fw_process(fw_session *s, const fw_frame *frame, fw_result **out, fw_error *err)
{
    if (!out)
        return set_error(err, FW_ERR_USAGE, 0, "fw_process: no place for the result");
    *out = NULL;
    if (!s)
        return set_error(err, FW_ERR_USAGE, 0, "fw_process: no session");
    if (s->options.running_mode == FW_MODE_LIVE_STREAM)
        return set_error(err, FW_ERR_USAGE, 0,
                         "fw_process: a LIVE_STREAM session may drop frames; use fw_send and fw_poll");
    struct frame_request r;
    int rc = build_frame(s, frame, &r, err);
    if (rc != FW_OK)
        return rc;
    WorkerMessage *answer;
    rc = call_worker(s->client, &r.message, FACEWORKER__V1__WORKER_MESSAGE__KIND__NOT_SET, &answer, err);
    if (rc != FW_OK)
        return rc;
    if (answer->kind_case == FACEWORKER__V1__WORKER_MESSAGE__KIND_FRAME_RESULT) {
        *out = (fw_result *)(void *)answer;
        return FW_OK;
    }
    if (answer->kind_case == FACEWORKER__V1__WORKER_MESSAGE__KIND_FRAME_DROPPED) {
        rc = set_error(err, FW_ERR_DROPPED, 0, "face-worker dropped frame %lld: %s",
                       (long long)frame->timestamp_ms, drop_reason_text(answer->frame_dropped->reason));
        faceworker__v1__worker_message__free_unpacked(answer, NULL);
        return rc;
    }
    int kind = (int)answer->kind_case;
    faceworker__v1__worker_message__free_unpacked(answer, NULL);
    return break_connection(s->client, err, FW_ERR_PROTOCOL, 0,
                            "face-worker answered a frame with message kind %d", kind);
}

int fw_process_jpeg(fw_session *s, const uint8_t *jpeg, size_t len, int64_t timestamp_ms, fw_result **out,
                    fw_error *err)
{
    fw_frame f = {.jpeg = jpeg, .jpeg_len = len, .timestamp_ms = timestamp_ms};
    return fw_process(s, &f, out, err);
}

int fw_send(fw_session *s, const fw_frame *frame, fw_error *err)
{
    if (!s)
        return set_error(err, FW_ERR_USAGE, 0, "fw_send: no session");
    fw_client *c = s->client;
    int rc = check_usable(c, err);
    if (rc != FW_OK)
        return rc;
    struct frame_request r;
    rc = build_frame(s, frame, &r, err);
    if (rc != FW_OK)
        return rc;
    /* Allocated before sending, so that routing the answer never fails. */
    struct call *call = calloc(1, sizeof *call);
    if (!call)
        return set_error(err, FW_ERR_NOMEM, 0, "out of memory for a frame's call");
    r.message.call_id = c->next_call_id++;
    rc = send_message(c, &r.message, deadline_after(c->timeout_ms), err);
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
    clear_error(err);
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
    WorkerMessage *m = call->answer;
    ev->timestamp_ms = call->timestamp_ms;
    switch (m->kind_case) {
    case FACEWORKER__V1__WORKER_MESSAGE__KIND_FRAME_RESULT:
        ev->type = FW_EVENT_RESULT;
        ev->result = (fw_result *)(void *)m;
        call->answer = NULL;
        break;
    case FACEWORKER__V1__WORKER_MESSAGE__KIND_FRAME_DROPPED:
        ev->type = FW_EVENT_DROPPED;
        ev->drop_reason = (fw_drop_reason)m->frame_dropped->reason;
        break;
    case FACEWORKER__V1__WORKER_MESSAGE__KIND_ERROR:
        ev->type = FW_EVENT_ERROR;
        status_error(&ev->error, m->error);
        break;
    default: {
        int kind = (int)m->kind_case;
        free_call(call);
        ev->type = FW_EVENT_NONE;
        return break_connection(s->client, err, FW_ERR_PROTOCOL, 0,
                                "face-worker answered a frame with message kind %d", kind);
    }
    }
    free_call(call);
    clear_error(err);
    return FW_OK;
}

int fw_poll(fw_session *s, int timeout_ms, fw_event *ev, fw_error *err)
{
    if (!s || !ev)
        return set_error(err, FW_ERR_USAGE, 0, "fw_poll: no session or no event");
    memset(ev, 0, sizeof *ev);
    if (s->events_head)
        return pop_event(s, ev, err);
    fw_client *c = s->client;
    int rc = check_usable(c, err);
    if (rc != FW_OK)
        return rc;
    int64_t deadline = deadline_after(timeout_ms);
    for (;;) {
        WorkerMessage *m;
        rc = receive_message(c, deadline, &m, err);
        if (rc != FW_OK)
            return rc;
        if (!m) {
            clear_error(err);
            return FW_OK;
        }
        rc = route(c, m, err);
        if (rc != FW_OK)
            return rc;
        if (s->events_head)
            return pop_event(s, ev, err);
    }
}

/* ------------------------------------------------------------------------
 * Results
 * ------------------------------------------------------------------------ */

static const Faceworker__V1__FrameResult *frame_of(const fw_result *r)
{
    return ((const WorkerMessage *)(const void *)r)->frame_result;
}

static const Faceworker__V1__Face *face_of(const fw_face *f)
{
    return (const Faceworker__V1__Face *)(const void *)f;
}

void fw_result_free(fw_result *r)
{
    if (r)
        faceworker__v1__worker_message__free_unpacked((WorkerMessage *)(void *)r, NULL);
}

int64_t fw_result_timestamp(const fw_result *r)
{
    return frame_of(r)->timestamp_ms;
}

uint32_t fw_result_image_width(const fw_result *r)
{
    return frame_of(r)->image_width;
}

uint32_t fw_result_image_height(const fw_result *r)
{
    return frame_of(r)->image_height;
}

bool fw_result_detector_ran(const fw_result *r)
{
    return frame_of(r)->detector_ran;
}

fw_timings fw_result_timings(const fw_result *r)
{
    const Faceworker__V1__StageTimings *t = frame_of(r)->timings;
    if (!t)
        return (fw_timings){0};
    return (fw_timings){
        .received_unix_us = t->received_unix_us,
        .queued_us = t->queued_us,
        .decode_us = t->decode_us,
        .detect_us = t->detect_us,
        .landmarks_us = t->landmarks_us,
        .total_us = t->total_us,
    };
}

size_t fw_result_face_count(const fw_result *r)
{
    return frame_of(r)->n_faces;
}

const fw_face *fw_result_face(const fw_result *r, size_t i)
{
    const Faceworker__V1__FrameResult *fr = frame_of(r);
    return i < fr->n_faces ? (const fw_face *)(const void *)fr->faces[i] : NULL;
}

fw_box fw_face_box(const fw_face *f)
{
    const Faceworker__V1__BoundingBox *b = face_of(f)->bounding_box;
    return b ? (fw_box){b->x, b->y, b->width, b->height} : (fw_box){0};
}

float fw_face_score(const fw_face *f)
{
    return face_of(f)->score;
}

static fw_point point_of(const Faceworker__V1__Point *p)
{
    return p ? (fw_point){p->x, p->y} : (fw_point){0};
}

bool fw_face_keypoint(const fw_face *f, fw_keypoint_type type, fw_point *position, fw_point *normalized)
{
    const Faceworker__V1__Face *face = face_of(f);
    for (size_t i = 0; i < face->n_keypoints; i++) {
        const Faceworker__V1__Keypoint *k = face->keypoints[i];
        if ((int)k->type != (int)type)
            continue;
        if (position)
            *position = point_of(k->position);
        if (normalized)
            *normalized = point_of(k->normalized);
        return true;
    }
    return false;
}

size_t fw_face_landmark_count(const fw_face *f)
{
    return face_of(f)->n_landmarks;
}

bool fw_face_landmark(const fw_face *f, fw_landmark_type type, fw_point *position)
{
    const Faceworker__V1__Face *face = face_of(f);
    for (size_t i = 0; i < face->n_landmarks; i++) {
        if ((int)face->landmarks[i]->type == (int)type) {
            if (position)
                *position = point_of(face->landmarks[i]->position);
            return true;
        }
    }
    return false;
}

size_t fw_face_contour_count(const fw_face *f)
{
    return face_of(f)->n_contours;
}

size_t fw_face_contour(const fw_face *f, fw_contour_type type, fw_point *out, size_t cap)
{
    const Faceworker__V1__Face *face = face_of(f);
    for (size_t i = 0; i < face->n_contours; i++) {
        const Faceworker__V1__Contour *contour = face->contours[i];
        if ((int)contour->type != (int)type)
            continue;
        /* A trailing partial point (never sent by the worker) is not a point. */
        size_t points = contour->n_points_xy / 2;
        for (size_t j = 0; j < points && j < cap; j++)
            out[j] = (fw_point){contour->points_xy[2 * j], contour->points_xy[2 * j + 1]};
        return points;
    }
    return 0;
}

const float *fw_face_mesh_xyz(const fw_face *f, size_t *points)
{
    const Faceworker__V1__Face *face = face_of(f);
    /* A trailing partial point (never sent by the worker) is not a point. */
    *points = face->n_mesh_xyz / 3;
    return *points ? face->mesh_xyz : NULL;
}

size_t fw_face_mesh(const fw_face *f, fw_point3 *out, size_t cap)
{
    size_t points;
    const float *xyz = fw_face_mesh_xyz(f, &points);
    for (size_t i = 0; i < points && i < cap; i++)
        out[i] = (fw_point3){xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2]};
    return points;
}

bool fw_face_transformation_matrix(const fw_face *f, float out[16])
{
    const Faceworker__V1__Face *face = face_of(f);
    if (face->n_transformation_matrix != 16)
        return false;
    memcpy(out, face->transformation_matrix, 16 * sizeof(float));
    return true;
}

bool fw_face_head_euler_angle_x(const fw_face *f, float *out)
{
    const Faceworker__V1__Face *face = face_of(f);
    if (!face->optional_head_euler_angle_x_case)
        return false;
    *out = face->head_euler_angle_x;
    return true;
}

bool fw_face_head_euler_angle_y(const fw_face *f, float *out)
{
    const Faceworker__V1__Face *face = face_of(f);
    if (!face->optional_head_euler_angle_y_case)
        return false;
    *out = face->head_euler_angle_y;
    return true;
}

bool fw_face_head_euler_angle_z(const fw_face *f, float *out)
{
    const Faceworker__V1__Face *face = face_of(f);
    if (!face->optional_head_euler_angle_z_case)
        return false;
    *out = face->head_euler_angle_z;
    return true;
}

bool fw_face_smiling_probability(const fw_face *f, float *out)
{
    const Faceworker__V1__Face *face = face_of(f);
    if (!face->optional_smiling_probability_case)
        return false;
    *out = face->smiling_probability;
    return true;
}

bool fw_face_left_eye_open_probability(const fw_face *f, float *out)
{
    const Faceworker__V1__Face *face = face_of(f);
    if (!face->optional_left_eye_open_probability_case)
        return false;
    *out = face->left_eye_open_probability;
    return true;
}

bool fw_face_right_eye_open_probability(const fw_face *f, float *out)
{
    const Faceworker__V1__Face *face = face_of(f);
    if (!face->optional_right_eye_open_probability_case)
        return false;
    *out = face->right_eye_open_probability;
    return true;
}

bool fw_face_tracking_id(const fw_face *f, int32_t *out)
{
    const Faceworker__V1__Face *face = face_of(f);
    if (!face->optional_tracking_id_case)
        return false;
    *out = face->tracking_id;
    return true;
}

bool fw_face_presence_score(const fw_face *f, float *out)
{
    const Faceworker__V1__Face *face = face_of(f);
    if (!face->optional_presence_score_case)
        return false;
    *out = face->presence_score;
    return true;
}

/* ------------------------------------------------------------------------
 * Statistics
 * ------------------------------------------------------------------------ */

int fw_get_stats(fw_client *c, fw_stats *out, fw_error *err)
{
    if (!c || !out)
        return set_error(err, FW_ERR_USAGE, 0, "fw_get_stats: no client or no place for the stats");
    Faceworker__V1__GetStatsRequest req = FACEWORKER__V1__GET_STATS_REQUEST__INIT;
    ClientMessage m = FACEWORKER__V1__CLIENT_MESSAGE__INIT;
    m.kind_case = FACEWORKER__V1__CLIENT_MESSAGE__KIND_GET_STATS;
    m.get_stats = &req;
    WorkerMessage *answer;
    int rc = call_worker(c, &m, FACEWORKER__V1__WORKER_MESSAGE__KIND_GET_STATS, &answer, err);
    if (rc != FW_OK)
        return rc;
    const Faceworker__V1__GetStatsResponse *s = answer->get_stats;
    memset(out, 0, sizeof *out);
    out->uptime_seconds = s->uptime_seconds;
    out->connections = s->connections;
    out->sessions = s->sessions;
    out->frames_processed = s->frames_processed;
    out->frames_dropped = s->frames_dropped;
    out->frames_failed = s->frames_failed;
    out->resident_memory_bytes = s->resident_memory_bytes;
    out->inference_threads = s->inference_threads;
    for (size_t i = 0; i < s->n_stage_latencies; i++) {
        const Faceworker__V1__StageLatency *l = s->stage_latencies[i];
        int stage = (int)l->stage - FACEWORKER__V1__STAGE__STAGE_QUEUED;
        if (stage < 0 || stage >= FW_STAGE_COUNT)
            continue;
        out->stages[stage] = (fw_stage_latency){l->p50_us, l->p90_us, l->p99_us, l->count};
    }
    for (size_t i = 0; i < s->n_models && out->model_count < FW_STATS_MAX_MODELS; i++) {
        fw_model_info *info = &out->models[out->model_count++];
        snprintf(info->name, sizeof info->name, "%s", s->models[i]->name ? s->models[i]->name : "");
        snprintf(info->sha256, sizeof info->sha256, "%s", s->models[i]->sha256 ? s->models[i]->sha256 : "");
        info->size_bytes = s->models[i]->size_bytes;
    }
    faceworker__v1__worker_message__free_unpacked(answer, NULL);
    return FW_OK;
}
