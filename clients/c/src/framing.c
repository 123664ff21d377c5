/*
 * Framing: moving messages between the socket and the I/O-free reader and
 * writer of wire.c. Blocking calls wait here, on a deadline; the
 * non-blocking calls of the event-loop front take only what the socket
 * gives or takes at once.
 */
#include "internal.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

/* The end of the stream, with the worker's last status when it sent one and
 * how much of a message it cut short. */
static int closed_error(fw_client *c, fw_error *err)
{
    char cut[96] = "";
    size_t expected;
    size_t unparsed = fwi_reader_unparsed(&c->reader, &expected);
    if (unparsed > 0 && unparsed < expected)
        snprintf(cut, sizeof cut, " inside a message%s (%zu of %zu bytes received)",
                 unparsed < FWI_HEADER_BYTES ? " header" : "", unparsed, expected);
    if (c->farewell.code != FW_OK)
        return fwi_break_connection(c, err, FW_ERR_CLOSED, 0, "face-worker closed the connection%s: %s: %s", cut,
                                    fw_status_name(c->farewell.code), c->farewell.message);
    return fwi_break_connection(c, err, FW_ERR_CLOSED, 0, "face-worker closed the connection%s", cut);
}

int fwi_fill_reader(fw_client *c, fw_error *err)
{
    size_t room;
    uint8_t *space = fwi_reader_space(&c->reader, 16384, &room);
    if (!space)
        return fwi_break_connection(c, err, FW_ERR_NOMEM, 0, "out of memory for bytes from face-worker");
    for (;;) {
        ssize_t n = recv(c->fd, space, room, 0);
        if (n > 0) {
            fwi_reader_commit(&c->reader, (size_t)n);
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

int fwi_next_message(fw_client *c, WorkerMessage **out, fw_error *err)
{
    fw_error why;
    int rc = fwi_reader_next(&c->reader, out, &why);
    if (rc != FW_OK)
        return fwi_break_connection(c, err, rc, 0, "%s", why.message);
    return FW_OK;
}

int fwi_receive_message(fw_client *c, int64_t deadline, WorkerMessage **out, fw_error *err)
{
    for (;;) {
        int rc = fwi_next_message(c, out, err);
        if (rc != FW_OK || *out)
            return rc;
        int ready = fwi_wait_socket(c, POLLIN, deadline);
        if (ready == 0)
            return FW_OK;
        if (ready < 0)
            return fwi_break_connection(c, err, FW_ERR_IO, errno, "waiting for face-worker: %s", strerror(errno));
        rc = fwi_fill_reader(c, err);
        if (rc != FW_OK)
            return rc;
    }
}

int fwi_flush(fw_client *c, size_t *written, fw_error *err)
{
    *written = 0;
    while (fwi_writer_pending(&c->writer) > 0) {
        ssize_t n = send(c->fd, c->writer.buf + c->writer.off, fwi_writer_pending(&c->writer), MSG_NOSIGNAL);
        if (n >= 0) {
            fwi_writer_consume(&c->writer, (size_t)n);
            *written += (size_t)n;
            continue;
        }
        if (errno == EINTR)
            continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK)
            return FW_OK;
        if (errno == EPIPE || errno == ECONNRESET)
            return closed_error(c, err);
        return fwi_break_connection(c, err, FW_ERR_IO, errno, "writing to face-worker: %s", strerror(errno));
    }
    return FW_OK;
}

int fwi_write_queued(fw_client *c, size_t keep, int64_t deadline, fw_error *err)
{
    size_t total = fwi_writer_pending(&c->writer);
    size_t done = 0;
    for (;;) {
        size_t written;
        int rc = fwi_flush(c, &written, err);
        if (rc != FW_OK)
            return rc;
        done += written;
        if (fwi_writer_pending(&c->writer) == 0)
            return FW_OK;
        int ready = fwi_wait_socket(c, POLLIN | POLLOUT, deadline);
        if (ready < 0)
            return fwi_break_connection(c, err, FW_ERR_IO, errno, "waiting for face-worker: %s", strerror(errno));
        if (ready == 0) {
            if (done == 0) {
                fwi_writer_take_back(&c->writer, keep);
                return fwi_set_error(err, FW_DEADLINE_EXCEEDED, 0, "face-worker did not accept the request in time");
            }
            /* Half a message on the wire cannot be taken back. */
            return fwi_break_connection(c, err, FW_ERR_IO, 0,
                                        "timed out after writing %zu of %zu bytes to face-worker", done, total);
        }
        /* While the socket is full the worker's answers are read, so that
         * a worker blocked on sending them cannot deadlock against this
         * write. */
        if (ready & POLLIN) {
            rc = fwi_fill_reader(c, err);
            if (rc != FW_OK)
                return rc;
        }
    }
}

int fwi_send_message(fw_client *c, ClientMessage *m, int64_t deadline, fw_error *err)
{
    size_t keep = fwi_writer_pending(&c->writer);
    int rc = fwi_writer_append(&c->writer, m, err);
    if (rc != FW_OK)
        return rc;
    return fwi_write_queued(c, keep, deadline, err);
}
