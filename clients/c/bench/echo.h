/*
 * The floor under a Ping: a bare echo process on the other end of a Unix
 * socket pair. It sleeps in epoll_wait(2) as the worker's event loop does and
 * sends back what it reads, with no protocol at all, so a round trip to it
 * is what the kernel and the machine's thread wake-ups cost by themselves.
 */
#ifndef FACE_BENCH_ECHO_H
#define FACE_BENCH_ECHO_H

#include <stddef.h>
#include <sys/types.h>

typedef struct echo_peer {
    int fd;
    pid_t pid;
} echo_peer;

/* Forks the echo process. Returns 0, or -1 with a message in err. */
int echo_start(echo_peer *peer, char *err, size_t err_size);

/* Sends len bytes (at most 256) and waits, in poll(2), until all of them
 * are back; for the first busy_poll_us microseconds it only checks, as
 * fw_set_busy_poll() makes the client library do. Returns 0, or -1 with
 * errno set (EPIPE when the echo is gone). */
int echo_round_trip(echo_peer *peer, const void *message, size_t len, int busy_poll_us);

/* Closes the socket, which ends the echo process, and waits for it. */
void echo_stop(echo_peer *peer);

#endif
