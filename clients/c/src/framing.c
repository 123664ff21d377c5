/*
 * Framing: gRPC's length-prefixed messages in and out of the client's
 * buffers. Incoming bytes collect in the read buffer and whole messages are
 * cut from it; a header is judged before anything is allocated for its
 * payload.
 */
#include "internal.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#define READ_CHUNK (64u * 1024u)

uint32_t fwi_payload_length(const uint8_t *header)
{
    return (uint32_t)header[1] << 24 | (uint32_t)header[2] << 16 | (uint32_t)header[3] << 8 | header[4];
}

/* The end of the stream, with the worker's last status when it sent one and
 * how much of a message it cut short. */
static int closed_error(fw_client *c, fw_error *err)
{
    char cut[96] = "";
    size_t unparsed = c->rlen - c->roff;
    size_t expected = unparsed < HEADER_BYTES ? HEADER_BYTES : HEADER_BYTES + (size_t)fwi_payload_length(c->rbuf + c->roff);
    if (unparsed > 0 && unparsed < expected)
        snprintf(cut, sizeof cut, " inside a message%s (%zu of %zu bytes received)",
                 unparsed < HEADER_BYTES ? " header" : "", unparsed, expected);
    if (c->farewell.code != FW_OK)
        return fwi_break_connection(c, err, FW_ERR_CLOSED, 0, "face-worker closed the connection%s: %s: %s", cut,
                                    fw_status_name(c->farewell.code), c->farewell.message);
    return fwi_break_connection(c, err, FW_ERR_CLOSED, 0, "face-worker closed the connection%s", cut);
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
        return fwi_break_connection(c, err, FW_ERR_NOMEM, 0, "out of memory for a %zu-byte message from face-worker",
                                    need);
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
        return fwi_break_connection(c, err, FW_ERR_IO, errno, "reading from face-worker: %s", strerror(errno));
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
    if (h[0] != UNCOMPRESSED_FLAG)
        return fwi_break_connection(c, err, FW_ERR_PROTOCOL, 0,
                                    "face-worker sent a message with flag byte 0x%02x, which this client does not "
                                    "support (only 0x00, uncompressed)",
                                    h[0]);
    uint32_t len = fwi_payload_length(h);
    if (len > FW_MAX_ANSWER_BYTES)
        return fwi_break_connection(c, err, FW_ERR_PROTOCOL, 0,
                                    "face-worker sent a message of %u bytes, over this client's limit of %u bytes",
                                    len, FW_MAX_ANSWER_BYTES);
    if (avail < HEADER_BYTES + (size_t)len)
        return reserve_read(c, HEADER_BYTES + (size_t)len, err);
    WorkerMessage *m = faceworker__v1__worker_message__unpack(NULL, len, h + HEADER_BYTES);
    if (!m)
        return fwi_break_connection(c, err, FW_ERR_PROTOCOL, 0,
                                    "face-worker sent a message of %u bytes that is not a WorkerMessage", len);
    c->roff += HEADER_BYTES + (size_t)len;
    if (c->roff == c->rlen)
        c->roff = c->rlen = 0;
    *out = m;
    return FW_OK;
}

int fwi_receive_message(fw_client *c, int64_t deadline, WorkerMessage **out, fw_error *err)
{
    for (;;) {
        int rc = parse_message(c, out, err);
        if (rc != FW_OK || *out)
            return rc;
        int ready = fwi_wait_socket(c, POLLIN, deadline);
        if (ready == 0)
            return FW_OK;
        if (ready < 0)
            return fwi_break_connection(c, err, FW_ERR_IO, errno, "waiting for face-worker: %s", strerror(errno));
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
            return fwi_break_connection(c, err, FW_ERR_IO, errno, "writing to face-worker: %s", strerror(errno));
        int ready = fwi_wait_socket(c, POLLIN | POLLOUT, deadline);
        if (ready < 0)
            return fwi_break_connection(c, err, FW_ERR_IO, errno, "waiting for face-worker: %s", strerror(errno));
        if (ready == 0) {
            if (done == 0)
                return fwi_set_error(err, FW_DEADLINE_EXCEEDED, 0, "face-worker did not accept the request in time");
            /* Half a message on the wire cannot be taken back. */
            return fwi_break_connection(c, err, FW_ERR_IO, 0,
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

int fwi_send_message(fw_client *c, ClientMessage *m, int64_t deadline, fw_error *err)
{
    size_t size = protobuf_c_message_get_packed_size(&m->base);
    if (size > UINT32_MAX - HEADER_BYTES)
        return fwi_set_error(err, FW_ERR_USAGE, 0, "a request of %zu bytes is too large for the wire format", size);
    size_t total = HEADER_BYTES + size;
    if (c->wcap < total) {
        uint8_t *grown = realloc(c->wbuf, total);
        if (!grown)
            return fwi_set_error(err, FW_ERR_NOMEM, 0, "out of memory for a %zu-byte request", total);
        c->wbuf = grown;
        c->wcap = total;
    }
    c->wbuf[0] = UNCOMPRESSED_FLAG;
    c->wbuf[1] = (uint8_t)(size >> 24);
    c->wbuf[2] = (uint8_t)(size >> 16);
    c->wbuf[3] = (uint8_t)(size >> 8);
    c->wbuf[4] = (uint8_t)size;
    protobuf_c_message_pack(&m->base, c->wbuf + HEADER_BYTES);
    return write_all(c, c->wbuf, total, deadline, err);
}
