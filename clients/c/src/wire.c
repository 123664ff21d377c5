/*
 * The reader and the writer of src/wire.h.
 */
#include "wire.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What a read from a socket asks room for, so that one recv(2) takes a
 * typical answer whole. */
#define READ_CHUNK (64u * 1024u)

/* The reader stands alone (the tests link it without the client), so it
 * fills errors itself. */
__attribute__((format(printf, 3, 4))) static int reader_error(fw_error *err, int code, const char *fmt, ...)
{
    if (err) {
        err->code = code;
        err->sys_errno = 0;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
    }
    return code;
}

uint32_t fwi_payload_length(const uint8_t *header)
{
    return (uint32_t)header[1] << 24 | (uint32_t)header[2] << 16 | (uint32_t)header[3] << 8 | header[4];
}

void fwi_reader_init(fwi_reader *r, uint32_t max_payload)
{
    memset(r, 0, sizeof *r);
    r->max_payload = max_payload;
}

void fwi_reader_free(fwi_reader *r)
{
    free(r->buf);
    fwi_reader_init(r, r->max_payload);
}

void fwi_reader_clear(fwi_reader *r)
{
    r->off = r->len = 0;
}

/* Room for `need` unparsed bytes from buf[off]. */
static bool reserve(fwi_reader *r, size_t need)
{
    if (r->cap - r->off >= need)
        return true;
    if (r->off > 0) {
        memmove(r->buf, r->buf + r->off, r->len - r->off);
        r->len -= r->off;
        r->off = 0;
    }
    if (r->cap >= need)
        return true;
    uint8_t *grown = realloc(r->buf, need);
    if (!grown)
        return false;
    r->buf = grown;
    r->cap = need;
    return true;
}

uint8_t *fwi_reader_space(fwi_reader *r, size_t want, size_t *room)
{
    if (r->cap - r->len < want) {
        size_t unparsed = r->len - r->off;
        if (!reserve(r, unparsed + (want > READ_CHUNK ? want : READ_CHUNK)))
            return NULL;
    }
    *room = r->cap - r->len;
    return r->buf + r->len;
}

void fwi_reader_commit(fwi_reader *r, size_t n)
{
    r->len += n;
}

int fwi_reader_feed(fwi_reader *r, const void *bytes, size_t n, fw_error *err)
{
    if (n == 0)
        return FW_OK;
    if (!reserve(r, r->len - r->off + n))
        return reader_error(err, FW_ERR_NOMEM, "out of memory for %zu bytes from face-worker", n);
    memcpy(r->buf + r->len, bytes, n);
    r->len += n;
    return FW_OK;
}

int fwi_reader_next(fwi_reader *r, WorkerMessage **out, fw_error *err)
{
    *out = NULL;
    size_t avail = r->len - r->off;
    if (avail < FWI_HEADER_BYTES)
        return FW_OK;
    const uint8_t *h = r->buf + r->off;
    if (h[0] != FWI_UNCOMPRESSED_FLAG)
        return reader_error(err, FW_ERR_PROTOCOL,
                            "face-worker sent a message with flag byte 0x%02x, which this client does not "
                            "support (only 0x00, uncompressed)",
                            h[0]);
    uint32_t len = fwi_payload_length(h);
    if (len > r->max_payload)
        return reader_error(err, FW_ERR_PROTOCOL,
                            "face-worker sent a message of %u bytes, over this client's limit of %u bytes", len,
                            r->max_payload);
    size_t whole = FWI_HEADER_BYTES + (size_t)len;
    if (avail < whole) {
        /* The header is sound: the payload gets its room now, so that reads
         * land in place and the message is never copied to grow. */
        if (!reserve(r, whole))
            return reader_error(err, FW_ERR_NOMEM, "out of memory for a %zu-byte message from face-worker",
                                whole);
        return FW_OK;
    }
    WorkerMessage *m = faceworker__v1__worker_message__unpack(NULL, len, h + FWI_HEADER_BYTES);
    if (!m)
        return reader_error(err, FW_ERR_PROTOCOL,
                            "face-worker sent a message of %u bytes that is not a WorkerMessage", len);
    r->off += whole;
    if (r->off == r->len)
        r->off = r->len = 0;
    *out = m;
    return FW_OK;
}

size_t fwi_reader_unparsed(const fwi_reader *r, size_t *expected)
{
    size_t unparsed = r->len - r->off;
    *expected = unparsed < FWI_HEADER_BYTES ? FWI_HEADER_BYTES
                                            : FWI_HEADER_BYTES + (size_t)fwi_payload_length(r->buf + r->off);
    return unparsed;
}

size_t fwi_message_size(const ClientMessage *m)
{
    size_t payload = protobuf_c_message_get_packed_size(&m->base);
    return payload > UINT32_MAX ? 0 : FWI_HEADER_BYTES + payload;
}

/* Writes m, whose framed size is `total`, into buf: the size is known to
 * the callers, and computing it walks the whole message. */
static void write_framed(const ClientMessage *m, size_t total, uint8_t *buf)
{
    size_t payload = total - FWI_HEADER_BYTES;
    buf[0] = FWI_UNCOMPRESSED_FLAG;
    buf[1] = (uint8_t)(payload >> 24);
    buf[2] = (uint8_t)(payload >> 16);
    buf[3] = (uint8_t)(payload >> 8);
    buf[4] = (uint8_t)payload;
    protobuf_c_message_pack(&m->base, buf + FWI_HEADER_BYTES);
}

size_t fwi_write_message(const ClientMessage *m, uint8_t *buf, size_t cap)
{
    size_t total = fwi_message_size(m);
    if (total != 0 && total <= cap)
        write_framed(m, total, buf);
    return total;
}

void fwi_writer_free(fwi_writer *w)
{
    free(w->buf);
    memset(w, 0, sizeof *w);
}

void fwi_writer_clear(fwi_writer *w)
{
    w->off = w->len = 0;
}

int fwi_writer_append(fwi_writer *w, const ClientMessage *m, fw_error *err)
{
    size_t total = fwi_message_size(m);
    if (total == 0)
        return reader_error(err, FW_ERR_USAGE, "a request of %zu bytes is too large for the wire format",
                            protobuf_c_message_get_packed_size(&m->base));
    if (w->off > 0 && w->off == w->len)
        w->off = w->len = 0;
    if (w->cap - w->len < total) {
        if (w->off > 0) {
            memmove(w->buf, w->buf + w->off, w->len - w->off);
            w->len -= w->off;
            w->off = 0;
        }
        if (w->cap - w->len < total) {
            uint8_t *grown = realloc(w->buf, w->len + total);
            if (!grown)
                return reader_error(err, FW_ERR_NOMEM, "out of memory for a %zu-byte request", total);
            w->buf = grown;
            w->cap = w->len + total;
        }
    }
    write_framed(m, total, w->buf + w->len);
    w->len += total;
    return FW_OK;
}

void fwi_writer_consume(fwi_writer *w, size_t n)
{
    w->off += n;
    if (w->off == w->len)
        w->off = w->len = 0;
}

void fwi_writer_take_back(fwi_writer *w, size_t keep)
{
    if (keep < fwi_writer_pending(w))
        w->len = w->off + keep;
    if (w->off == w->len)
        w->off = w->len = 0;
}
