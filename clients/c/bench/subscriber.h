/*
 * face-bench's subscriber mode: follows a named session of another process
 * and records when each of its events arrives, on CLOCK_REALTIME so that
 * the arrival can be set against the producer's send time in another
 * process of the same host.
 */
#ifndef FACE_BENCH_SUBSCRIBER_H
#define FACE_BENCH_SUBSCRIBER_H

#include <stdbool.h>
#include <stdint.h>

/* The host's wall clock in ns (CLOCK_REALTIME), shared by every process. */
int64_t unix_ns(void);

/* Subscribes to `name` on the worker at socket_path (retrying while no
 * session has the name yet, for up to wait_s seconds), receives until the
 * subscription ends, and prints a summary (one JSON object with json). With
 * events_path, writes one line per event: "TIMESTAMP_MS KIND 0
 * ARRIVED_UNIX_NS", KIND one of result, dropped, error, missed (with the
 * count in place of the timestamp), reset, ended. Returns the exit status:
 * 0 when the subscription ended as its session closed, with no error. */
int run_subscriber(const char *socket_path, const char *name, int wait_s, const char *events_path, bool json);

#endif
