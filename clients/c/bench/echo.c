#include "echo.h"

#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define ECHO_MAX 256

/* Runs in the forked child of a threaded process: only async-signal-safe
 * calls until _exit. */
static void serve(int fd)
{
    int ep = epoll_create1(0);
    struct epoll_event ev = {.events = EPOLLIN, .data.fd = fd};
    if (ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev) != 0)
        _exit(1);
    char buf[ECHO_MAX];
    for (;;) {
        if (epoll_wait(ep, &ev, 1, -1) < 0) {
            if (errno == EINTR)
                continue;
            _exit(1);
        }
        ssize_t n = read(fd, buf, sizeof buf);
        if (n <= 0)
            _exit(n == 0 ? 0 : 1);
        for (ssize_t done = 0; done < n;) {
            ssize_t w = write(fd, buf + done, (size_t)(n - done));
            if (w < 0)
                _exit(1);
            done += w;
        }
    }
}

int echo_start(echo_peer *peer, char *err, size_t err_size)
{
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
        snprintf(err, err_size, "socketpair: %s", strerror(errno));
        return -1;
    }
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(err, err_size, "fork: %s", strerror(errno));
        close(sv[0]);
        close(sv[1]);
        return -1;
    }
    if (pid == 0) {
        close(sv[0]);
        serve(sv[1]);
    }
    close(sv[1]);
    peer->fd = sv[0];
    peer->pid = pid;
    return 0;
}

/* Whether a wait that began at start is still inside its busy-poll
 * window. */
static bool spinning(const struct timespec *start, int busy_poll_us)
{
    if (busy_poll_us <= 0)
        return false;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    int64_t ns = (int64_t)(now.tv_sec - start->tv_sec) * 1000000000 + (now.tv_nsec - start->tv_nsec);
    return ns < (int64_t)busy_poll_us * 1000;
}

int echo_round_trip(echo_peer *peer, const void *message, size_t len, int busy_poll_us)
{
    if (len > ECHO_MAX) {
        errno = EMSGSIZE;
        return -1;
    }
    if (send(peer->fd, message, len, MSG_NOSIGNAL) != (ssize_t)len)
        return -1;
    char buf[ECHO_MAX];
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (size_t got = 0; got < len;) {
        struct pollfd p = {.fd = peer->fd, .events = POLLIN};
        int ready = poll(&p, 1, spinning(&start, busy_poll_us) ? 0 : -1);
        if (ready == 0 || (ready < 0 && errno == EINTR))
            continue;
        if (ready < 0)
            return -1;
        ssize_t n = read(peer->fd, buf + got, len - got);
        if (n == 0)
            errno = EPIPE;
        if (n <= 0)
            return -1;
        got += (size_t)n;
    }
    return 0;
}

void echo_stop(echo_peer *peer)
{
    close(peer->fd);
    while (waitpid(peer->pid, NULL, 0) < 0 && errno == EINTR)
        ;
}
