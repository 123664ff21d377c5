/*
 * The floors under every request: an empty Ping's round trip through the
 * worker, and the same round trip to a bare echo process without it.
 */
#include <errno.h>
#include <string.h>

#include "echo.h"
#include "run.h"

static bool ping_step(struct run *r, size_t i, void *client)
{
    fw_error err;
    int64_t sent = now_ns();
    int rc = fw_ping(client, NULL, 0, &err);
    int64_t received = now_ns();
    if (rc != FW_OK) {
        record_error(r, "ping %zu: %s: %s", i, fw_status_name(rc), err.message);
        return !connection_gone(rc);
    }
    record_ping(r, sent, received);
    return true;
}

static bool echo_step(struct run *r, size_t i, void *peer)
{
    static const char message[ECHO_BYTES] = "face-bench";
    int64_t sent = now_ns();
    int rc = echo_round_trip(peer, message, sizeof message, r->cfg->busy_poll_us);
    int64_t received = now_ns();
    if (rc != 0) {
        record_error(r, "echo %zu: %s", i, strerror(errno));
        return false;
    }
    record_ping(r, sent, received);
    return true;
}

void run_echo(struct run *r)
{
    echo_peer peer;
    char err[256];
    if (echo_start(&peer, err, sizeof err) != 0) {
        record_error(r, "starting the echo process: %s", err);
        return;
    }
    run_paced(r, echo_step, &peer);
    echo_stop(&peer);
}

void run_ping(struct run *r, fw_client *c)
{
    run_paced(r, ping_step, c);
}
