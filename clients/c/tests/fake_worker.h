/*
 * A scripted stand-in for face-worker, for the tests of the client's wire
 * handling: it listens on a fresh socket, accepts one connection in a
 * thread, and runs a script that reads the client's messages and writes
 * whatever bytes the test needs, well-formed or not.
 */
#ifndef FW_TEST_FAKE_WORKER_H
#define FW_TEST_FAKE_WORKER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "faceworker.h"
#include "faceworker/v1/faceworker.pb-c.h"

typedef struct fake_worker fake_worker;

/* Runs on the worker's thread with the accepted connection, which is closed
 * when the script returns. */
typedef void (*fake_script)(int fd, void *arg);

/* Starts listening; NULL if the socket cannot be set up. */
fake_worker *fake_worker_start(fake_script script, void *arg);

/* Runs the script on each of `connections` connections in turn, one
 * accepted after the script of the one before returned. */
fake_worker *fake_worker_start_serving(fake_script script, void *arg, int connections);

/* Once the script of the last connection has returned: closes the
 * listening socket, dropping the connections waiting in its queue, and
 * listens again on the same path, as a restarted worker does, running
 * `script` on each of `connections` connections. False if the socket
 * cannot be set up again. */
bool fake_worker_serve_again(fake_worker *w, fake_script script, void *arg, int connections);

/* The socket path to connect to. */
const char *fake_worker_path(const fake_worker *w);

/* Waits for the script to finish, then removes the socket. */
void fake_worker_stop(fake_worker *w);

/* Reads one framed ClientMessage, checking its header; NULL at end of
 * stream or on a malformed message. Free with
 * faceworker__v1__client_message__free_unpacked(m, NULL). */
Faceworker__V1__ClientMessage *fake_read(int fd);

/* Writes m framed. */
void fake_write(int fd, const Faceworker__V1__WorkerMessage *m);

/* Writes raw bytes. */
void fake_write_bytes(int fd, const void *bytes, size_t len);

/* Writes m framed, one byte at a time with a pause between bytes, so that
 * the client sees every possible partial read. */
void fake_write_slowly(int fd, const Faceworker__V1__WorkerMessage *m);

/* Answers call_id with a Status. */
void fake_write_status(int fd, uint64_t call_id, Faceworker__V1__Status__Code code, const char *message);

/* Answers the ping m under call_id with its own payload, at once or one
 * byte at a time. */
void fake_answer_ping(int fd, const Faceworker__V1__ClientMessage *m, uint64_t call_id, bool slowly);

/* Answers the OpenSession m with session_id and `options` in effect (a
 * worker may change what was asked for). */
void fake_answer_open(int fd, const Faceworker__V1__ClientMessage *m, uint64_t session_id,
                      Faceworker__V1__SessionOptions *options);

/* Reads until the client hangs up, so that a script ends with its test. */
void fake_wait_for_hangup(int fd);

/* Starts a fake worker running script and connects a client to it, with
 * auto-reconnect off: a script's worker never comes back, and the tests see
 * the connection as the script leaves it. NULL, with the worker stopped and
 * the reason on stderr, if either fails. */
fw_client *fake_connect(fake_script script, void *arg, fake_worker **w);

/* Closes the client, then waits for the script to end: the client hangs up
 * first, and the scripts read until it does. */
void fake_disconnect(fw_client *c, fake_worker *w);

#endif
