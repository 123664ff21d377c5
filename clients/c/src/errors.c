/*
 * Errors: the codes' names, filling fw_error, and the connection's broken
 * state, which every later call repeats.
 */
#include "internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *const grpc_names[] = {
    "OK",           "CANCELLED",         "UNKNOWN",   "INVALID_ARGUMENT",   "DEADLINE_EXCEEDED",
    "NOT_FOUND",    "ALREADY_EXISTS",    "PERMISSION_DENIED", "RESOURCE_EXHAUSTED",
    "FAILED_PRECONDITION", "ABORTED",    "OUT_OF_RANGE", "UNIMPLEMENTED",   "INTERNAL",
    "UNAVAILABLE",  "DATA_LOSS",         "UNAUTHENTICATED",
};

static const char *const local_names[] = {
    "ERR_USAGE", "ERR_NOMEM", "ERR_CONNECT", "ERR_IO", "ERR_CLOSED", "ERR_PROTOCOL", "ERR_DROPPED", "ERR_SYSTEM",
};

#define GRPC_CODES ((int)(sizeof grpc_names / sizeof grpc_names[0]))

const char *fw_status_name(int code)
{
    if (code >= 0 && code < GRPC_CODES)
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

int fwi_set_error(fw_error *err, int code, int sys_errno, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    verror(err, code, sys_errno, fmt, ap);
    va_end(ap);
    return code;
}

void fwi_clear_error(fw_error *err)
{
    if (err) {
        err->code = FW_OK;
        err->sys_errno = 0;
        err->message[0] = '\0';
    }
}

int fwi_break_connection(fw_client *c, fw_error *err, int code, int sys_errno, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    verror(&c->broken, code, sys_errno, fmt, ap);
    va_end(ap);
    if (err)
        *err = c->broken;
    return code;
}

int fwi_check_usable(const fw_client *c, fw_error *err)
{
    if (c->connecting != CONNECTED && c->broken.code == FW_OK)
        return fwi_set_error(err, FW_ERR_USAGE, 0,
                             "the client is still connecting: call fw_client_progress until fw_client_wants says "
                             "FW_WANT_READ");
    if (c->broken.code == FW_OK)
        return FW_OK;
    if (err)
        *err = c->broken;
    return c->broken.code;
}

int fwi_status_error(fw_error *err, const Faceworker__V1__Status *status)
{
    int code = (int)status->code;
    const char *message = status->message ? status->message : "";
    /* gRPC maps codes it does not know to UNKNOWN; so does this client, and
     * keeps the number in the message. */
    if (code < 1 || code >= GRPC_CODES)
        return fwi_set_error(err, FW_UNKNOWN, 0, "face-worker sent status code %d, which this client does not know: %s",
                             code, message[0] ? message : "no message");
    if (!message[0])
        return fwi_set_error(err, code, 0, "face-worker answered %s without a message", grpc_names[code]);
    /* Copied by hand: printf's "%s" would read the whole of a long message
     * only to count what does not fit. */
    if (err) {
        size_t len = strnlen(message, sizeof err->message - 1);
        memcpy(err->message, message, len);
        err->message[len] = '\0';
        err->code = code;
        err->sys_errno = 0;
    }
    return code;
}

const char *fwi_message_kind_name(int kind)
{
    const ProtobufCFieldDescriptor *field =
        protobuf_c_message_descriptor_get_field(&faceworker__v1__worker_message__descriptor, (unsigned)kind);
    if (kind == FACEWORKER__V1__WORKER_MESSAGE__KIND__NOT_SET)
        return "a message of no kind";
    return field ? field->name : "a message of unknown kind";
}

int fwi_unexpected_answer(fw_client *c, WorkerMessage *m, const char *due, fw_error *err)
{
    unsigned long long id = (unsigned long long)m->call_id;
    const char *kind = fwi_message_kind_name((int)m->kind_case);
    faceworker__v1__worker_message__free_unpacked(m, NULL);
    return fwi_break_connection(c, err, FW_ERR_PROTOCOL, 0, "face-worker answered call %llu with %s where %s was due",
                                id, kind, due);
}
