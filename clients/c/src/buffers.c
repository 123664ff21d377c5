/*
 * Shared-memory buffers: a memfd made, sized, sealed against shrinking (so
 * the worker can never fault on a truncated buffer) and mapped here; its
 * registration (a RegisterBuffer call, then the handoff); and forgetting
 * it again.
 */
#define _GNU_SOURCE /* memfd_create and the F_*SEAL* flags */
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

void fwi_free_buffer(fw_buffer *b)
{
    if (b->data)
        munmap(b->data, b->size);
    if (b->fd >= 0)
        close(b->fd);
    free(b);
}

/* Hands fd over for the worker's answer to RegisterBuffer, and takes the
 * id and size it gives b; links b to the client unless `again`. Frees the
 * answer. */
static int hand_over(fw_client *c, fw_buffer *b, int fd, bool again, WorkerMessage *answer, fw_error *err)
{
    const Faceworker__V1__RegisterBufferResponse *r = answer->register_buffer;
    uint64_t size = 0;
    int rc = fwi_hand_off(c, r->handoff_address ? r->handoff_address : "", &r->token, fd, r->buffer_id, &size, err);
    if (rc == FW_OK) {
        b->client = c;
        b->id = r->buffer_id;
        if (!b->data)
            b->size = (size_t)size;
        if (!again) {
            b->next = c->buffers;
            c->buffers = b;
        }
        fwi_clear_error(err);
    }
    faceworker__v1__worker_message__free_unpacked(answer, NULL);
    return rc;
}

/* Registers fd with the worker as b; links b to the client unless `again`. */
static int register_as(fw_client *c, fw_buffer *b, int fd, bool again, fw_error *err)
{
    Faceworker__V1__RegisterBufferRequest req = FACEWORKER__V1__REGISTER_BUFFER_REQUEST__INIT;
    ClientMessage m = FACEWORKER__V1__CLIENT_MESSAGE__INIT;
    m.kind_case = FACEWORKER__V1__CLIENT_MESSAGE__KIND_REGISTER_BUFFER;
    m.register_buffer = &req;
    WorkerMessage *answer;
    int rc = fwi_call_worker(c, &m, FACEWORKER__V1__WORKER_MESSAGE__KIND_REGISTER_BUFFER, &answer, err);
    if (rc != FW_OK)
        return rc;
    return hand_over(c, b, fd, again, answer, err);
}

int fwi_queue_register_again(fw_client *c, fw_buffer *b, fw_error *err)
{
    struct call *call = calloc(1, sizeof *call);
    if (!call)
        return fwi_set_error(err, FW_ERR_NOMEM, 0, "out of memory for registering a buffer again");
    call->kind = CALL_REREGISTER;
    call->buffer = b;
    Faceworker__V1__RegisterBufferRequest req = FACEWORKER__V1__REGISTER_BUFFER_REQUEST__INIT;
    ClientMessage m = FACEWORKER__V1__CLIENT_MESSAGE__INIT;
    m.kind_case = FACEWORKER__V1__CLIENT_MESSAGE__KIND_REGISTER_BUFFER;
    m.register_buffer = &req;
    int rc = fwi_queue_call(c, &m, call, err);
    if (rc != FW_OK)
        free(call);
    return rc;
}

int fwi_registered_again(fw_client *c, fw_buffer *b, WorkerMessage *answer, fw_error *err)
{
    return hand_over(c, b, b->fd, true, answer, err);
}

/* Registers fd with the worker and links b, which holds it, to the client. */
static int register_descriptor(fw_client *c, fw_buffer *b, int fd, fw_error *err)
{
    return register_as(c, b, fd, false, err);
}

int fwi_register_again(fw_client *c, fw_buffer *b, fw_error *err)
{
    return register_as(c, b, b->fd, true, err);
}

/* A memfd of `size` bytes, sealed against shrinking, in b->fd; -1 with
 * *err filled. */
static int make_memfd(fw_buffer *b, size_t size, fw_error *err)
{
    b->fd = memfd_create("faceworker-buffer", MFD_ALLOW_SEALING | MFD_CLOEXEC);
    if (b->fd < 0)
        return fwi_set_error(err, FW_ERR_SYSTEM, errno, "cannot make a memfd: %s", strerror(errno));
    if (ftruncate(b->fd, (off_t)size) != 0)
        return fwi_set_error(err, FW_ERR_SYSTEM, errno, "cannot size a memfd to %zu bytes: %s", size,
                             strerror(errno));
    if (fcntl(b->fd, F_ADD_SEALS, F_SEAL_SHRINK) != 0)
        return fwi_set_error(err, FW_ERR_SYSTEM, errno, "cannot seal a memfd against shrinking: %s",
                             strerror(errno));
    void *data = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, b->fd, 0);
    if (data == MAP_FAILED)
        return fwi_set_error(err, FW_ERR_SYSTEM, errno, "cannot map a %zu-byte memfd: %s", size, strerror(errno));
    b->data = data;
    b->size = size;
    return FW_OK;
}

fw_buffer *fw_register_buffer(fw_client *c, size_t size, fw_error *err)
{
    if (!c || size == 0 || size > (size_t)INT64_MAX) {
        fwi_set_error(err, FW_ERR_USAGE, 0, "fw_register_buffer: no client, or a size of %zu bytes (1 to %lld)",
                      size, (long long)INT64_MAX);
        return NULL;
    }
    if (fwi_prepare(c, err) != FW_OK)
        return NULL;
    fw_buffer *b = calloc(1, sizeof *b);
    if (!b) {
        fwi_set_error(err, FW_ERR_NOMEM, 0, "out of memory for a buffer");
        return NULL;
    }
    if (make_memfd(b, size, err) != FW_OK || register_descriptor(c, b, b->fd, err) != FW_OK) {
        fwi_free_buffer(b);
        return NULL;
    }
    return b;
}

fw_buffer *fw_register_fd(fw_client *c, int fd, fw_error *err)
{
    if (!c || fd < 0) {
        fwi_set_error(err, FW_ERR_USAGE, 0, "fw_register_fd: no client, or descriptor %d", fd);
        return NULL;
    }
    if (fwi_prepare(c, err) != FW_OK)
        return NULL;
    fw_buffer *b = calloc(1, sizeof *b);
    if (!b) {
        fwi_set_error(err, FW_ERR_NOMEM, 0, "out of memory for a buffer");
        return NULL;
    }
    /* Kept so that fw_reconnect() can hand it to a new worker; the caller
     * still closes its own. */
    b->fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
    if (b->fd < 0) {
        fwi_set_error(err, FW_ERR_SYSTEM, errno, "cannot duplicate descriptor %d: %s", fd, strerror(errno));
        free(b);
        return NULL;
    }
    if (register_descriptor(c, b, b->fd, err) != FW_OK) {
        fwi_free_buffer(b);
        return NULL;
    }
    return b;
}

void *fw_buffer_data(fw_buffer *b)
{
    return b->data;
}

size_t fw_buffer_size(const fw_buffer *b)
{
    return b->size;
}

uint64_t fw_buffer_id(const fw_buffer *b)
{
    return b->id;
}

int fw_unregister_buffer(fw_buffer *b, fw_error *err)
{
    if (!b) {
        fwi_clear_error(err);
        return FW_OK;
    }
    fw_client *c = b->client;
    Faceworker__V1__UnregisterBufferRequest req = FACEWORKER__V1__UNREGISTER_BUFFER_REQUEST__INIT;
    req.buffer_id = b->id;
    ClientMessage m = FACEWORKER__V1__CLIENT_MESSAGE__INIT;
    m.kind_case = FACEWORKER__V1__CLIENT_MESSAGE__KIND_UNREGISTER_BUFFER;
    m.unregister_buffer = &req;
    int rc = c->async ? fwi_async_end(c, &m, b, NULL, err)
                      : fwi_call_to_end(c, &m, FACEWORKER__V1__WORKER_MESSAGE__KIND_UNREGISTER_BUFFER, err);
    fwi_forget_handle(c, b);
    for (fw_buffer **link = &c->buffers; *link; link = &(*link)->next) {
        if (*link == b) {
            *link = b->next;
            break;
        }
    }
    fwi_free_buffer(b);
    return rc;
}
