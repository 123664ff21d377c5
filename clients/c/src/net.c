/*
 * The socket: where the worker listens, connecting to it, and waiting on it
 * with a deadline. One non-blocking socket per client, driven by poll(2)
 * so that every wait can honour a deadline.
 */
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

/* The socket rule of proto/faceworker/v1/defaults.json, which the worker
 * follows too. */
#define SOCKET_ENV "FACEWORKER_SOCKET"
#define RUNTIME_DIR_ENV "XDG_RUNTIME_DIR"
#define RUNTIME_DIR_FILE "faceworker.sock"
#define FALLBACK_FORMAT "/tmp/faceworker-%u.sock"

/* Writes the path the socket rule picks into buf, like snprintf, and says
 * which part of the rule picked it. */
static int rule_path(char *buf, size_t size, const char **source)
{
    const char *chosen = getenv(SOCKET_ENV);
    if (chosen && chosen[0]) {
        *source = " (from " SOCKET_ENV ")";
        return snprintf(buf, size, "%s", chosen);
    }
    const char *dir = getenv(RUNTIME_DIR_ENV);
    if (dir && dir[0] == '/') { /* a relative XDG_RUNTIME_DIR is ignored */
        *source = " (in " RUNTIME_DIR_ENV ")";
        return snprintf(buf, size, "%s%s" RUNTIME_DIR_FILE, dir, dir[strlen(dir) - 1] == '/' ? "" : "/");
    }
    *source = "";
    return snprintf(buf, size, FALLBACK_FORMAT, (unsigned)geteuid());
}

int fw_default_socket_path(char *buf, size_t size)
{
    const char *source;
    int n = rule_path(buf, size, &source);
    if (n < 0 || (size_t)n >= size) {
        if (size > 0)
            buf[0] = '\0';
        return -1;
    }
    return n;
}

int fwi_connect(int fd, const struct sockaddr_un *addr, socklen_t addr_len)
{
    if (connect(fd, (const struct sockaddr *)addr, addr_len) == 0)
        return 0;
    if (errno != EINTR)
        return -1;
    struct pollfd p = {.fd = fd, .events = POLLOUT};
    while (poll(&p, 1, -1) < 0)
        if (errno != EINTR)
            return -1;
    int so_error = 0;
    socklen_t len = sizeof so_error;
    if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &so_error, &len) < 0)
        return -1;
    if (so_error != 0) {
        errno = so_error;
        return -1;
    }
    return 0;
}

int fwi_socket_address(const char *path, struct sockaddr_un *addr, fw_error *err)
{
    memset(addr, 0, sizeof *addr);
    addr->sun_family = AF_UNIX;
    const char *source = "";
    size_t len;
    if (path) {
        len = strlen(path);
        if (len < sizeof addr->sun_path)
            memcpy(addr->sun_path, path, len + 1);
    } else {
        int n = rule_path(addr->sun_path, sizeof addr->sun_path, &source);
        len = n < 0 ? 0 : (size_t)n;
    }
    if (len == 0 || len >= sizeof addr->sun_path)
        return fwi_set_error(err, FW_ERR_USAGE, 0, "the socket path%s has %zu bytes; a Unix socket path has 1 to %zu",
                             source, len, sizeof addr->sun_path - 1);
    return FW_OK;
}

int fwi_connect_error(const char *path, int e, fw_error *err)
{
    return fwi_set_error(err, FW_ERR_CONNECT, e, "cannot connect to face-worker at %s: %s (is face-worker running?)",
                         path, strerror(e));
}

int fwi_open_socket(const char *path, int *pending, fw_error *err)
{
    struct sockaddr_un addr;
    if (fwi_socket_address(path, &addr, err) != FW_OK)
        return -1;
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | (pending ? SOCK_NONBLOCK : 0), 0);
    if (fd < 0) {
        fwi_set_error(err, FW_ERR_IO, errno, "cannot make a socket: %s", strerror(errno));
        return -1;
    }
    if (pending) {
        *pending = CONNECTED;
        if (connect(fd, (const struct sockaddr *)&addr, sizeof addr) == 0)
            return fd;
        /* A full listen queue: a Unix socket's connect(2) is tried again,
         * never finished in the background. */
        if (errno == EAGAIN) {
            *pending = CONNECT_AGAIN;
            return fd;
        }
        if (errno == EINPROGRESS || errno == EINTR) {
            *pending = CONNECT_IN_PROGRESS;
            return fd;
        }
    } else if (fwi_connect(fd, &addr, sizeof addr) == 0) {
        int flags = fcntl(fd, F_GETFL);
        if (flags >= 0 && fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0)
            return fd;
        fwi_set_error(err, FW_ERR_IO, errno, "cannot make the socket non-blocking: %s", strerror(errno));
        close(fd);
        return -1;
    }
    fwi_connect_error(addr.sun_path, errno, err);
    close(fd);
    return -1;
}

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int64_t fwi_deadline_after(int timeout_ms)
{
    return timeout_ms < 0 ? -1 : now_ns() + (int64_t)timeout_ms * 1000000;
}

static int remaining_ms(int64_t deadline)
{
    if (deadline < 0)
        return -1;
    int64_t left = deadline - now_ns();
    if (left <= 0)
        return 0;
    int64_t ms = (left + 999999) / 1000000;
    return ms > INT_MAX ? INT_MAX : (int)ms;
}

/* Within the busy-poll window it only checks, never sleeps. */
int fwi_wait_socket(fw_client *c, short events, int64_t deadline)
{
    if (c->busy_poll_us > 0) {
        int64_t until = now_ns() + (int64_t)c->busy_poll_us * 1000;
        if (deadline >= 0 && deadline < until)
            until = deadline;
        do {
            struct pollfd p = {.fd = c->fd, .events = events};
            int n = poll(&p, 1, 0);
            if (n > 0)
                return p.revents;
            if (n < 0 && errno != EINTR)
                return -1;
        } while (now_ns() < until);
    }
    for (;;) {
        struct pollfd p = {.fd = c->fd, .events = events};
        int n = poll(&p, 1, remaining_ms(deadline));
        if (n > 0)
            return p.revents;
        if (n == 0)
            return 0;
        if (errno != EINTR)
            return -1;
    }
}
