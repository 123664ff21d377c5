/*
 * The wire format without the wire: gRPC's length-prefixed messages cut
 * from bytes the caller feeds in (the reader) and written into memory the
 * caller owns (the writer). Nothing here reads, writes or waits on a
 * descriptor, so the blocking calls, the non-blocking ones and the tests
 * share one parser, and the tests need no socket.
 *
 * Each message is a flag byte (0: uncompressed), the payload's length as
 * four big-endian bytes, then the payload: one protobuf message.
 */
#ifndef FW_WIRE_H
#define FW_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "faceworker.h"
#include "faceworker/v1/faceworker.pb-c.h"

typedef Faceworker__V1__ClientMessage ClientMessage;
typedef Faceworker__V1__WorkerMessage WorkerMessage;

#define FWI_HEADER_BYTES 5
#define FWI_UNCOMPRESSED_FLAG 0

/* Bytes from the worker not yet cut into messages: buf[off, len). A header
 * is judged before anything is allocated for its payload. */
typedef struct fwi_reader {
    uint8_t *buf;
    size_t off, len, cap;
    uint32_t max_payload;
} fwi_reader;

void fwi_reader_init(fwi_reader *r, uint32_t max_payload);
/* Frees the reader's memory; it may be used again as if just initialised. */
void fwi_reader_free(fwi_reader *r);
/* Forgets the unparsed bytes, for a new connection. */
void fwi_reader_clear(fwi_reader *r);

/* Copies n bytes in. FW_OK, or FW_ERR_NOMEM with *err filled. */
int fwi_reader_feed(fwi_reader *r, const void *bytes, size_t n, fw_error *err);
/* For a transport that reads straight into the reader: room for at least
 * `want` bytes at the end (more when a message being read needs it), its
 * size in *room; NULL when out of memory. fwi_reader_commit() then takes
 * the n bytes written there. */
uint8_t *fwi_reader_space(fwi_reader *r, size_t want, size_t *room);
void fwi_reader_commit(fwi_reader *r, size_t n);

/* Cuts the next whole message: FW_OK with *out the caller's (free with
 * faceworker__v1__worker_message__free_unpacked), or FW_OK with *out NULL
 * when more bytes are needed. A flag byte other than 0, a length over the
 * reader's limit, or a payload that is no WorkerMessage is FW_ERR_PROTOCOL
 * with the reason in *err; the stream cannot be read on after it, and the
 * bytes stay until fwi_reader_clear(). FW_ERR_NOMEM when a message does not
 * fit in memory. */
int fwi_reader_next(fwi_reader *r, WorkerMessage **out, fw_error *err);

/* How many unparsed bytes the reader holds, and in *expected how many the
 * message they begin would have (the header's 5 while it is incomplete):
 * what a stream that ends now cut short. */
size_t fwi_reader_unparsed(const fwi_reader *r, size_t *expected);

/* The payload length a 5-byte header states. */
uint32_t fwi_payload_length(const uint8_t *header);

/* The bytes m takes on the wire, header included; 0 when its payload is
 * too long for a 4-byte length. */
size_t fwi_message_size(const ClientMessage *m);
/* Writes m, framed, into buf and returns the bytes written, or, like
 * snprintf, the bytes needed (writing nothing) when cap is too small; 0
 * when m is too long for the wire. */
size_t fwi_write_message(const ClientMessage *m, uint8_t *buf, size_t cap);

/* Requests not yet written to the worker: buf[off, len). */
typedef struct fwi_writer {
    uint8_t *buf;
    size_t off, len, cap;
} fwi_writer;

void fwi_writer_free(fwi_writer *w);
/* Forgets what was not written, for a new connection. */
void fwi_writer_clear(fwi_writer *w);
/* Appends m, framed. FW_OK; FW_ERR_USAGE for a message too long for the
 * wire, FW_ERR_NOMEM; *err says which. */
int fwi_writer_append(fwi_writer *w, const ClientMessage *m, fw_error *err);
/* The bytes waiting to be written. */
static inline size_t fwi_writer_pending(const fwi_writer *w)
{
    return w->len - w->off;
}
/* n bytes of the front were written. */
void fwi_writer_consume(fwi_writer *w, size_t n);
/* Drops what was queued after the first `keep` bytes waiting: requests
 * that never left. */
void fwi_writer_take_back(fwi_writer *w, size_t keep);

#endif
