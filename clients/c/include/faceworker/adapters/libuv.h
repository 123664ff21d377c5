/*
 * faceworker/adapters/libuv.h - serves async-mode clients from a libuv
 * loop, many of them from one thread.
 *
 *     uv_loop_t *loop = uv_default_loop();
 *     fw_async_start(client, &handlers, &err);
 *     fw_uv_attach(loop, client, &err);
 *     uv_run(loop, UV_RUN_DEFAULT);
 *
 * Each client takes a uv_poll_t on its socket (a new one when it
 * reconnects) and a uv_timer_t for the waits between reconnect attempts.
 * fw_close() stops and closes both; the loop frees them on its next turn.
 * Link with libuv (pkg-config libuv).
 */
#ifndef FACEWORKER_ADAPTERS_LIBUV_H
#define FACEWORKER_ADAPTERS_LIBUV_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include <faceworker.h>

typedef struct fw_uv_client {
    uv_loop_t *loop;
    fw_client *client;
    uv_poll_t *poll; /* on the socket, or NULL */
    int fd;
    uv_timer_t timer;
} fw_uv_client;

static inline void fw_uv__free_handle(uv_handle_t *h)
{
    free(h);
}

static inline void fw_uv__free_client(uv_handle_t *timer)
{
    free(timer->data);
}

static inline void fw_uv__on_poll(uv_poll_t *poll, int status, int events)
{
    fw_uv_client *e = (fw_uv_client *)poll->data;
    unsigned ready = (status < 0 || events & (UV_READABLE | UV_DISCONNECT) ? FW_WANT_READ : 0u) |
                     (events & UV_WRITABLE ? FW_WANT_WRITE : 0u);
    fw_async_handle(e->client, ready);
}

static inline void fw_uv__on_timer(uv_timer_t *timer)
{
    fw_uv_client *e = (fw_uv_client *)timer->data;
    fw_async_timeout(e->client);
}

static inline void fw_uv__drop_poll(fw_uv_client *e)
{
    if (!e->poll)
        return;
    uv_poll_stop(e->poll);
    uv_close((uv_handle_t *)e->poll, fw_uv__free_handle);
    e->poll = NULL;
    e->fd = -1;
}

static inline void fw_uv__watch(void *loop, fw_client *client, int fd, unsigned wants)
{
    fw_uv_client *e = (fw_uv_client *)loop;
    (void)client;
    if (e->fd != fd)
        fw_uv__drop_poll(e);
    if (fd < 0)
        return;
    if (!e->poll) {
        e->poll = (uv_poll_t *)malloc(sizeof *e->poll);
        if (!e->poll || uv_poll_init(e->loop, e->poll, fd) != 0) {
            free(e->poll);
            e->poll = NULL;
            return;
        }
        e->poll->data = e;
        e->fd = fd;
    }
    int events = (wants & FW_WANT_READ ? UV_READABLE : 0) | (wants & FW_WANT_WRITE ? UV_WRITABLE : 0);
    uv_poll_start(e->poll, events, fw_uv__on_poll);
}

static inline void fw_uv__set_timer(void *loop, fw_client *client, int timeout_ms)
{
    fw_uv_client *e = (fw_uv_client *)loop;
    (void)client;
    if (timeout_ms < 0)
        uv_timer_stop(&e->timer);
    else
        uv_timer_start(&e->timer, fw_uv__on_timer, (uint64_t)timeout_ms, 0);
}

static inline void fw_uv__cleanup(void *loop, fw_client *client)
{
    fw_uv_client *e = (fw_uv_client *)loop;
    (void)client;
    fw_uv__drop_poll(e);
    uv_timer_stop(&e->timer);
    uv_close((uv_handle_t *)&e->timer, fw_uv__free_client);
}

/* Adds the client to the loop. FW_OK, or FW_ERR_NOMEM or FW_ERR_SYSTEM
 * with *err filled. */
static inline int fw_uv_attach(uv_loop_t *loop, fw_client *client, fw_error *err)
{
    fw_uv_client *e = (fw_uv_client *)calloc(1, sizeof *e);
    fw_error local;
    if (!err)
        err = &local;
    if (!e) {
        err->code = FW_ERR_NOMEM;
        err->sys_errno = 0;
        snprintf(err->message, sizeof err->message, "out of memory for a libuv attachment");
        return err->code;
    }
    e->loop = loop;
    e->client = client;
    e->fd = -1;
    int rc = uv_timer_init(loop, &e->timer);
    if (rc != 0) {
        err->code = FW_ERR_SYSTEM;
        err->sys_errno = -rc;
        snprintf(err->message, sizeof err->message, "cannot make a libuv timer: %s", uv_strerror(rc));
        free(e);
        return err->code;
    }
    e->timer.data = e;
    fw_loop_hooks hooks = {sizeof hooks, e, fw_uv__watch, fw_uv__set_timer, fw_uv__cleanup};
    rc = fw_async_attach(client, &hooks, err);
    if (rc != FW_OK)
        fw_uv__cleanup(e, client);
    return rc;
}

#endif
