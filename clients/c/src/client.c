/*
 * The client: one connection to the worker, its settings, and freeing it
 * with everything it still holds.
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static fw_client *new_client(const char *socket_path, bool wait, fw_error *err)
{
    fw_client *c = calloc(1, sizeof *c);
    if (!c) {
        fwi_set_error(err, FW_ERR_NOMEM, 0, "out of memory for a client");
        return NULL;
    }
    c->fd = fwi_open_socket(socket_path, wait ? NULL : &c->connecting, err);
    if (c->fd < 0) {
        free(c);
        return NULL;
    }
    /* Both fit: the socket was just connected through them. */
    if (socket_path)
        snprintf(c->path, sizeof c->path, "%s", socket_path);
    else
        fw_default_socket_path(c->path, sizeof c->path);
    fwi_reader_init(&c->reader, FW_MAX_ANSWER_BYTES);
    c->timeout_ms = -1;
    c->next_call_id = 1;
    c->auto_reconnect = true;
    fw_reconnect_options_init(&c->auto_options);
    c->watched_fd = -1;
    fwi_clear_error(err);
    return c;
}

fw_client *fw_connect(const char *socket_path, fw_error *err)
{
    return new_client(socket_path, true, err);
}

fw_client *fw_connect_nonblock(const char *socket_path, fw_error *err)
{
    return new_client(socket_path, false, err);
}

void fw_close(fw_client *c)
{
    if (!c)
        return;
    fwi_close_opens(c);
    if (c->hooked && c->hooks.cleanup)
        c->hooks.cleanup(c->hooks.loop, c);
    if (c->fd >= 0)
        close(c->fd);
    fwi_free_calls(c->in_flight);
    fw_session *s = c->sessions;
    while (s) {
        fw_session *next = s->next;
        fwi_free_session(s);
        s = next;
    }
    fw_subscription *sub = c->subscriptions;
    while (sub) {
        fw_subscription *next = sub->next;
        fwi_free_subscription(sub);
        sub = next;
    }
    fw_buffer *b = c->buffers;
    while (b) {
        fw_buffer *next = b->next;
        fwi_free_buffer(b);
        b = next;
    }
    fwi_reader_free(&c->reader);
    fwi_writer_free(&c->writer);
    free(c);
}

void fw_set_timeout(fw_client *c, int timeout_ms)
{
    c->timeout_ms = timeout_ms < 0 ? -1 : timeout_ms;
}

void fw_set_restart_drops(fw_client *c, bool on)
{
    c->restart_drops = on;
}

void fw_set_auto_reconnect(fw_client *c, bool on, const fw_reconnect_options *options)
{
    c->auto_reconnect = on;
    fwi_take_reconnect_options(options, &c->auto_options, NULL);
}

void fw_set_busy_poll(fw_client *c, int busy_poll_us)
{
    c->busy_poll_us = busy_poll_us < 0 ? 0 : busy_poll_us > FW_BUSY_POLL_MAX_US ? FW_BUSY_POLL_MAX_US : busy_poll_us;
}
