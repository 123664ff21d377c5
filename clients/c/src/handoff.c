/*
 * The handoff: a buffer's descriptor can only travel as SCM_RIGHTS
 * ancillary data, so it goes on a second, short connection to the address
 * RegisterBuffer named, with the token that says which reservation it is
 * for; the worker answers with one framed WorkerMessage and the connection
 * closes. A fault here concerns this one buffer: the client's own
 * connection stays usable.
 */
#include "internal.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

/* The worker's verdict is a BufferRegistered or a Status: a few dozen bytes,
 * or a status message. */
#define VERDICT_MAX_BYTES (64u * 1024u)

/* The socket address for "@name" (abstract: a leading NUL) or a path. */
static int handoff_address(const char *address, struct sockaddr_un *addr, socklen_t *len, fw_error *err)
{
    size_t n = strlen(address);
    memset(addr, 0, sizeof *addr);
    addr->sun_family = AF_UNIX;
    if (n == 0 || n >= sizeof addr->sun_path)
        return fwi_set_error(err, FW_ERR_SYSTEM, 0,
                             "face-worker named a handoff address of %zu bytes; a Unix socket address has 1 to %zu",
                             n, sizeof addr->sun_path - 1);
    memcpy(addr->sun_path, address, n);
    if (address[0] == '@') {
        addr->sun_path[0] = '\0';
        *len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n);
    } else {
        *len = (socklen_t)sizeof *addr;
    }
    return FW_OK;
}

/* Bounds the handoff's connect, send and receive by the client's timeout. */
static void set_timeouts(int fd, int timeout_ms)
{
    if (timeout_ms < 0)
        return;
    /* 0 would mean "no timeout" to the kernel. */
    struct timeval tv = {.tv_sec = timeout_ms / 1000, .tv_usec = (timeout_ms % 1000) * 1000 + (timeout_ms == 0)};
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
}

static int io_error(fw_error *err, int e, const char *what, const char *address)
{
    if (e == EAGAIN || e == EWOULDBLOCK || e == EINPROGRESS)
        return fwi_set_error(err, FW_DEADLINE_EXCEEDED, 0, "no answer from face-worker's handoff at %s in time",
                             address);
    return fwi_set_error(err, FW_ERR_SYSTEM, e, "%s face-worker's handoff at %s: %s", what, address, strerror(e));
}

static int send_descriptor(int sock, const ProtobufCBinaryData *token, int fd)
{
    struct iovec iov = {.iov_base = token->data, .iov_len = token->len};
    union {
        struct cmsghdr align;
        char bytes[CMSG_SPACE(sizeof(int))];
    } control;
    memset(&control, 0, sizeof control);
    struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = control.bytes,
                         .msg_controllen = sizeof control.bytes};
    struct cmsghdr *cmsg = CMSG_FIRSTHDR(&msg);
    cmsg->cmsg_level = SOL_SOCKET;
    cmsg->cmsg_type = SCM_RIGHTS;
    cmsg->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(cmsg), &fd, sizeof fd);
    ssize_t n;
    while ((n = sendmsg(sock, &msg, MSG_NOSIGNAL)) < 0 && errno == EINTR)
        ;
    if (n >= 0 && (size_t)n != token->len) {
        errno = EMSGSIZE; /* the token must arrive whole, with its descriptor */
        return -1;
    }
    return n < 0 ? -1 : 0;
}

/* Reads exactly len bytes; 0, or -1 with errno set (0 at end of stream). */
static int read_exact(int sock, uint8_t *buf, size_t len)
{
    size_t done = 0;
    while (done < len) {
        ssize_t n = recv(sock, buf + done, len - done, 0);
        if (n > 0) {
            done += (size_t)n;
        } else if (n == 0) {
            errno = 0;
            return -1;
        } else if (errno != EINTR) {
            return -1;
        }
    }
    return 0;
}

/* Reads the worker's one framed answer. */
static int read_verdict(int sock, const char *address, WorkerMessage **out, fw_error *err)
{
    uint8_t header[FWI_HEADER_BYTES];
    if (read_exact(sock, header, sizeof header) != 0)
        return errno ? io_error(err, errno, "reading from", address)
                     : fwi_set_error(err, FW_ERR_SYSTEM, 0,
                                     "face-worker's handoff at %s closed without an answer", address);
    uint32_t len = fwi_payload_length(header);
    if (header[0] != FWI_UNCOMPRESSED_FLAG || len > VERDICT_MAX_BYTES)
        return fwi_set_error(err, FW_ERR_SYSTEM, 0,
                             "face-worker's handoff at %s answered with flag byte 0x%02x and %u bytes, not a "
                             "message of at most %u bytes",
                             address, header[0], len, VERDICT_MAX_BYTES);
    uint8_t *payload = malloc(len ? len : 1);
    if (!payload)
        return fwi_set_error(err, FW_ERR_NOMEM, 0, "out of memory for the handoff's answer");
    int rc = FW_OK;
    if (read_exact(sock, payload, len) != 0)
        rc = errno ? io_error(err, errno, "reading from", address)
                   : fwi_set_error(err, FW_ERR_SYSTEM, 0, "face-worker's handoff at %s closed inside its answer",
                                   address);
    else if (!(*out = faceworker__v1__worker_message__unpack(NULL, len, payload)))
        rc = fwi_set_error(err, FW_ERR_SYSTEM, 0,
                           "face-worker's handoff at %s answered with %u bytes that are not a WorkerMessage",
                           address, len);
    free(payload);
    return rc;
}

int fwi_hand_off(fw_client *c, const char *address, const ProtobufCBinaryData *token, int fd, uint64_t buffer_id,
                 uint64_t *size, fw_error *err)
{
    struct sockaddr_un addr;
    socklen_t addr_len = 0;
    int rc = handoff_address(address, &addr, &addr_len, err);
    if (rc != FW_OK)
        return rc;
    int sock = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (sock < 0)
        return fwi_set_error(err, FW_ERR_SYSTEM, errno, "cannot make a socket for the handoff: %s", strerror(errno));
    set_timeouts(sock, c->timeout_ms);
    WorkerMessage *verdict = NULL;
    if (fwi_connect(sock, &addr, addr_len) != 0)
        rc = io_error(err, errno, "cannot connect to", address);
    else if (send_descriptor(sock, token, fd) != 0)
        rc = io_error(err, errno, "handing the buffer to", address);
    else
        rc = read_verdict(sock, address, &verdict, err);
    close(sock);
    if (rc != FW_OK)
        return rc;
    if (verdict->kind_case == FACEWORKER__V1__WORKER_MESSAGE__KIND_ERROR) {
        rc = fwi_status_error(err, verdict->error);
    } else if (verdict->kind_case != FACEWORKER__V1__WORKER_MESSAGE__KIND_BUFFER_REGISTERED ||
               verdict->buffer_registered->buffer_id != buffer_id) {
        rc = fwi_set_error(err, FW_ERR_SYSTEM, 0,
                           "face-worker's handoff answered with %s where buffer_registered for buffer %llu was due",
                           fwi_message_kind_name((int)verdict->kind_case), (unsigned long long)buffer_id);
    } else {
        *size = verdict->buffer_registered->size_bytes;
    }
    faceworker__v1__worker_message__free_unpacked(verdict, NULL);
    return rc;
}
