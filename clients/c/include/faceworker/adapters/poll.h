/*
 * faceworker/adapters/poll.h - serves async-mode clients from a poll(2)
 * loop: a set of clients, and one call that waits on all of them.
 *
 *     fw_pollset set = FW_POLLSET_INIT;
 *     fw_async_start(client, &handlers, &err);
 *     fw_pollset_add(&set, client, &err);
 *     while (fw_pollset_count(&set) > 0)
 *         fw_pollset_run(&set, -1);
 *
 * fw_close() takes a client out of its set.
 */
#ifndef FACEWORKER_ADAPTERS_POLL_H
#define FACEWORKER_ADAPTERS_POLL_H

#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <faceworker.h>

typedef struct fw_pollset_entry {
    struct fw_pollset *set;
    fw_client *client;
    int fd;
    unsigned wants;
    int64_t timer_at_ms; /* CLOCK_MONOTONIC, or -1 */
} fw_pollset_entry;

typedef struct fw_pollset {
    fw_pollset_entry **entries;
    size_t count, cap;
} fw_pollset;

#define FW_POLLSET_INIT {NULL, 0, 0}

static inline size_t fw_pollset_count(const fw_pollset *set)
{
    return set->count;
}

static inline int64_t fw_pollset__now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static inline void fw_pollset__watch(void *loop, fw_client *client, int fd, unsigned wants)
{
    fw_pollset_entry *e = (fw_pollset_entry *)loop;
    (void)client;
    e->fd = fd;
    e->wants = wants;
}

static inline void fw_pollset__set_timer(void *loop, fw_client *client, int timeout_ms)
{
    fw_pollset_entry *e = (fw_pollset_entry *)loop;
    (void)client;
    e->timer_at_ms = timeout_ms < 0 ? -1 : fw_pollset__now_ms() + timeout_ms;
}

static inline void fw_pollset__cleanup(void *loop, fw_client *client)
{
    fw_pollset_entry *e = (fw_pollset_entry *)loop;
    fw_pollset *set = e->set;
    (void)client;
    for (size_t i = 0; i < set->count; i++) {
        if (set->entries[i] == e) {
            set->entries[i] = set->entries[--set->count];
            break;
        }
    }
    if (set->count == 0) {
        free(set->entries);
        set->entries = NULL;
        set->cap = 0;
    }
    free(e);
}

/* Adds the client to the set. FW_OK, or FW_ERR_NOMEM with *err filled. */
static inline int fw_pollset_add(fw_pollset *set, fw_client *client, fw_error *err)
{
    fw_error local;
    if (!err)
        err = &local;
    fw_pollset_entry *e = (fw_pollset_entry *)calloc(1, sizeof *e);
    if (e && set->count == set->cap) {
        size_t cap = set->cap ? 2 * set->cap : 8;
        fw_pollset_entry **grown = (fw_pollset_entry **)realloc(set->entries, cap * sizeof *grown);
        if (grown) {
            set->entries = grown;
            set->cap = cap;
        }
    }
    if (!e || set->count == set->cap) {
        free(e);
        err->code = FW_ERR_NOMEM;
        err->sys_errno = 0;
        snprintf(err->message, sizeof err->message, "out of memory for a poll set's entry");
        return err->code;
    }
    e->set = set;
    e->client = client;
    e->fd = -1;
    e->timer_at_ms = -1;
    set->entries[set->count++] = e;
    fw_loop_hooks hooks = {sizeof hooks, e, fw_pollset__watch, fw_pollset__set_timer, fw_pollset__cleanup};
    int rc = fw_async_attach(client, &hooks, err);
    if (rc != FW_OK)
        fw_pollset__cleanup(e, client);
    return rc;
}

/* Waits up to timeout_ms (negative: until something happens) for any
 * client of the set, then moves every ready one on and runs the timers
 * that are due. The number of clients served, or -1 with errno set. */
static inline int fw_pollset_run(fw_pollset *set, int timeout_ms)
{
    size_t n = set->count;
    struct pollfd *fds = (struct pollfd *)calloc(n ? n : 1, sizeof *fds);
    fw_client **clients = (fw_client **)calloc(n ? n : 1, sizeof *clients);
    if (!fds || !clients) {
        free(fds);
        free(clients);
        errno = ENOMEM;
        return -1;
    }
    int64_t now = fw_pollset__now_ms();
    for (size_t i = 0; i < n; i++) {
        fw_pollset_entry *e = set->entries[i];
        clients[i] = e->client;
        fds[i].fd = e->fd;
        fds[i].events = (short)((e->wants & FW_WANT_READ ? POLLIN : 0) | (e->wants & FW_WANT_WRITE ? POLLOUT : 0));
        if (e->timer_at_ms >= 0) {
            int64_t left = e->timer_at_ms > now ? e->timer_at_ms - now : 0;
            if (timeout_ms < 0 || left < timeout_ms)
                timeout_ms = (int)left;
        }
    }
    int ready = poll(fds, (nfds_t)n, timeout_ms);
    int served = 0;
    if (ready >= 0) {
        now = fw_pollset__now_ms();
        /* A handler may close clients: each is looked up again by its
         * pointer before it is served. */
        for (size_t i = 0; i < n; i++) {
            fw_pollset_entry *e = NULL;
            for (size_t k = 0; k < set->count && !e; k++)
                if (set->entries[k]->client == clients[i])
                    e = set->entries[k];
            if (!e)
                continue;
            if (fds[i].revents && e->fd == fds[i].fd) {
                unsigned r = (fds[i].revents & (POLLIN | POLLERR | POLLHUP) ? FW_WANT_READ : 0u) |
                             (fds[i].revents & POLLOUT ? FW_WANT_WRITE : 0u);
                fw_async_handle(e->client, r);
                served++;
            } else if (e->timer_at_ms >= 0 && e->timer_at_ms <= now) {
                e->timer_at_ms = -1;
                fw_async_timeout(e->client);
                served++;
            }
        }
    }
    int saved = errno;
    free(fds);
    free(clients);
    errno = saved;
    return ready < 0 ? -1 : served;
}

#endif
