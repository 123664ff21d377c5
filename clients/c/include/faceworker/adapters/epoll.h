/*
 * faceworker/adapters/epoll.h - serves async-mode clients from an epoll(7)
 * loop, many of them from one thread.
 *
 *     int ep = epoll_create1(EPOLL_CLOEXEC);
 *     fw_async_start(client, &handlers, &err);
 *     fw_epoll_attach(ep, client, &err);
 *     for (;;) {
 *         struct epoll_event evs[64];
 *         int n = epoll_wait(ep, evs, 64, -1);
 *         for (int i = 0; i < n; i++)
 *             fw_epoll_dispatch(&evs[i]);
 *     }
 *
 * Each client takes two descriptors in the set: its socket and a timerfd
 * for the waits between reconnect attempts. Every event the adapter
 * registers carries in data.ptr an fw_epoll_handler, which
 * fw_epoll_dispatch() calls; an application that adds descriptors of its
 * own to the set gives them an fw_epoll_handler too. fw_close() takes the
 * client out of the set; do not close a client in the middle of a batch
 * that epoll_wait() returned, whose later events may name it.
 */
#ifndef FACEWORKER_ADAPTERS_EPOLL_H
#define FACEWORKER_ADAPTERS_EPOLL_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include <faceworker.h>

typedef struct fw_epoll_handler {
    void (*handle)(struct fw_epoll_handler *self, uint32_t events);
} fw_epoll_handler;

typedef struct fw_epoll_client {
    fw_epoll_handler io;
    fw_epoll_handler timer;
    int epfd;
    int fd; /* the socket in the set, or -1 */
    int timer_fd;
    fw_client *client;
} fw_epoll_client;

static inline void fw_epoll_dispatch(const struct epoll_event *ev)
{
    fw_epoll_handler *h = (fw_epoll_handler *)ev->data.ptr;
    h->handle(h, ev->events);
}

static inline void fw_epoll__on_io(fw_epoll_handler *h, uint32_t events)
{
    fw_epoll_client *e = (fw_epoll_client *)(void *)((char *)h - offsetof(fw_epoll_client, io));
    unsigned ready = (events & (EPOLLIN | EPOLLERR | EPOLLHUP) ? FW_WANT_READ : 0) |
                     (events & EPOLLOUT ? FW_WANT_WRITE : 0);
    fw_async_handle(e->client, ready);
}

static inline void fw_epoll__on_timer(fw_epoll_handler *h, uint32_t events)
{
    fw_epoll_client *e = (fw_epoll_client *)(void *)((char *)h - offsetof(fw_epoll_client, timer));
    uint64_t expirations;
    (void)events;
    if (read(e->timer_fd, &expirations, sizeof expirations) == (ssize_t)sizeof expirations)
        fw_async_timeout(e->client);
}

static inline void fw_epoll__watch(void *loop, fw_client *client, int fd, unsigned wants)
{
    fw_epoll_client *e = (fw_epoll_client *)loop;
    struct epoll_event ev;
    (void)client;
    memset(&ev, 0, sizeof ev);
    if (e->fd >= 0 && e->fd != fd)
        epoll_ctl(e->epfd, EPOLL_CTL_DEL, e->fd, &ev);
    if (fd < 0) {
        e->fd = -1;
        return;
    }
    ev.events = (wants & FW_WANT_READ ? EPOLLIN : 0u) | (wants & FW_WANT_WRITE ? EPOLLOUT : 0u);
    ev.data.ptr = &e->io;
    epoll_ctl(e->epfd, e->fd == fd ? EPOLL_CTL_MOD : EPOLL_CTL_ADD, fd, &ev);
    e->fd = fd;
}

static inline void fw_epoll__set_timer(void *loop, fw_client *client, int timeout_ms)
{
    fw_epoll_client *e = (fw_epoll_client *)loop;
    struct itimerspec t;
    (void)client;
    memset(&t, 0, sizeof t);
    if (timeout_ms >= 0) {
        t.it_value.tv_sec = timeout_ms / 1000;
        /* An all-zero it_value disarms the timer; "now" is 1 ns. */
        t.it_value.tv_nsec = (long)(timeout_ms % 1000) * 1000000L + (timeout_ms == 0);
    }
    timerfd_settime(e->timer_fd, 0, &t, NULL);
}

static inline void fw_epoll__cleanup(void *loop, fw_client *client)
{
    fw_epoll_client *e = (fw_epoll_client *)loop;
    struct epoll_event ev;
    (void)client;
    memset(&ev, 0, sizeof ev);
    if (e->fd >= 0)
        epoll_ctl(e->epfd, EPOLL_CTL_DEL, e->fd, &ev);
    epoll_ctl(e->epfd, EPOLL_CTL_DEL, e->timer_fd, &ev);
    close(e->timer_fd);
    free(e);
}

/* Adds the client to the epoll set epfd. FW_OK, or FW_ERR_NOMEM or
 * FW_ERR_SYSTEM (sys_errno set) with *err filled. */
static inline int fw_epoll_attach(int epfd, fw_client *client, fw_error *err)
{
    fw_epoll_client *e = (fw_epoll_client *)calloc(1, sizeof *e);
    fw_error local;
    if (!err)
        err = &local;
    if (!e) {
        err->code = FW_ERR_NOMEM;
        err->sys_errno = 0;
        snprintf(err->message, sizeof err->message, "out of memory for an epoll attachment");
        return err->code;
    }
    e->io.handle = fw_epoll__on_io;
    e->timer.handle = fw_epoll__on_timer;
    e->epfd = epfd;
    e->fd = -1;
    e->client = client;
    e->timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    struct epoll_event ev;
    memset(&ev, 0, sizeof ev);
    ev.events = EPOLLIN;
    ev.data.ptr = &e->timer;
    if (e->timer_fd < 0 || epoll_ctl(epfd, EPOLL_CTL_ADD, e->timer_fd, &ev) < 0) {
        err->code = FW_ERR_SYSTEM;
        err->sys_errno = errno;
        snprintf(err->message, sizeof err->message, "cannot add a timer to the epoll set: %s", strerror(errno));
        if (e->timer_fd >= 0)
            close(e->timer_fd);
        free(e);
        return err->code;
    }
    fw_loop_hooks hooks = {sizeof hooks, e, fw_epoll__watch, fw_epoll__set_timer, fw_epoll__cleanup};
    int rc = fw_async_attach(client, &hooks, err);
    if (rc != FW_OK)
        fw_epoll__cleanup(e, client);
    return rc;
}

#endif
