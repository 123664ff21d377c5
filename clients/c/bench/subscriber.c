#include "subscriber.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "faceworker.h"

#define RETRY_MS 10
/* How long the subscriber waits for any event before it gives up. */
#define EVENT_TIMEOUT_MS 60000

int64_t unix_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

struct logged {
    int64_t value; /* the frame's timestamp, or the missed count */
    const char *kind;
    int64_t arrived_unix_ns;
};

struct tally {
    struct logged *log;
    size_t logged, cap;
    size_t results, dropped, errors, missed, resets;
    /* From the worker receiving a frame to its result arriving here. */
    double *since_received_ms;
    fw_end_reason end;
    char first_error[FW_ERROR_MESSAGE_SIZE + 64];
};

static int keep(struct tally *t, int64_t value, const char *kind, int64_t arrived)
{
    if (t->logged == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 1024;
        struct logged *log = realloc(t->log, cap * sizeof *log);
        double *since = realloc(t->since_received_ms, cap * sizeof *since);
        if (log)
            t->log = log;
        if (since)
            t->since_received_ms = since;
        if (!log || !since)
            return -1;
        t->cap = cap;
    }
    t->log[t->logged++] = (struct logged){value, kind, arrived};
    return 0;
}

static void note_error(struct tally *t, const char *what, const fw_error *err)
{
    t->errors++;
    if (!t->first_error[0])
        snprintf(t->first_error, sizeof t->first_error, "%s: %s: %s", what, fw_status_name(err->code), err->message);
}

/* Returns false once the subscription is over. */
static bool take(struct tally *t, fw_subscription_event *ev)
{
    int64_t arrived = unix_ns();
    int rc = 0;
    switch (ev->type) {
    case FW_SUB_RESULT: {
        int64_t received_us = fw_result_timings(ev->result).received_unix_us;
        fw_result_free(ev->result);
        /* keep() makes room for one more result too: there are never more
         * results than events. */
        rc = keep(t, ev->timestamp_ms, "result", arrived);
        if (rc == 0)
            t->since_received_ms[t->results++] = (double)(arrived / 1000 - received_us) / 1000.0;
        break;
    }
    case FW_SUB_DROPPED:
        t->dropped++;
        rc = keep(t, ev->timestamp_ms, "dropped", arrived);
        break;
    case FW_SUB_FRAME_ERROR:
        note_error(t, "a frame's error", &ev->error);
        rc = keep(t, ev->timestamp_ms, "error", arrived);
        break;
    case FW_SUB_MISSED:
        t->missed += ev->missed;
        rc = keep(t, (int64_t)ev->missed, "missed", arrived);
        break;
    case FW_SUB_RESET:
        t->resets++;
        rc = keep(t, 0, "reset", arrived);
        break;
    case FW_SUB_ENDED:
        t->end = ev->end_reason;
        rc = keep(t, 0, "ended", arrived);
        return false;
    case FW_SUB_NONE:
    case FW_SUB_RESTARTED: /* no frame's event: the client followed the session onto a restarted worker */
        break;
    }
    if (rc != 0) {
        fw_error err = {.code = FW_ERR_NOMEM, .message = "out of memory for the event log"};
        note_error(t, "recording", &err);
        return false;
    }
    return true;
}

static fw_subscription *subscribe(fw_client *c, const char *name, int wait_s, struct tally *t)
{
    int64_t give_up = unix_ns() + (int64_t)wait_s * 1000000000;
    fw_error err;
    for (;;) {
        fw_subscription *sub = fw_subscribe(c, name, &err);
        if (sub || err.code != FW_NOT_FOUND || unix_ns() > give_up) {
            if (!sub)
                note_error(t, "subscribing", &err);
            return sub;
        }
        struct timespec pause = {.tv_nsec = RETRY_MS * 1000000};
        nanosleep(&pause, NULL);
    }
}

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double percentile(const double *sorted, size_t n, double p)
{
    if (n == 0)
        return 0;
    size_t rank = (size_t)ceil(p / 100.0 * (double)n);
    return sorted[rank == 0 ? 0 : rank - 1];
}

static int write_events(const char *path, const struct tally *t)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    for (size_t i = 0; i < t->logged; i++)
        fprintf(f, "%lld %s 0 %lld\n", (long long)t->log[i].value, t->log[i].kind,
                (long long)t->log[i].arrived_unix_ns);
    return fclose(f);
}

static const char *end_name(fw_end_reason reason)
{
    static const char *const names[] = {"unspecified", "session_closed", "producer_gone", "unsubscribed",
                                        "worker_stopping"};
    return (unsigned)reason < sizeof names / sizeof names[0] ? names[reason] : "unknown";
}

int run_subscriber(const char *socket_path, const char *name, int wait_s, const char *events_path, bool json)
{
    struct tally t = {.end = FW_END_UNSPECIFIED};
    fw_error err;
    fw_client *c = fw_connect(socket_path, &err);
    fw_subscription *sub = NULL;
    if (!c)
        note_error(&t, "connecting", &err);
    else
        sub = subscribe(c, name, wait_s, &t);
    bool ended = false;
    while (sub && !ended) {
        fw_subscription_event ev;
        int rc = fw_receive(sub, EVENT_TIMEOUT_MS, &ev, &err);
        if (rc != FW_OK) {
            note_error(&t, "receiving", &err);
            break;
        }
        if (ev.type == FW_SUB_NONE) {
            fw_error quiet = {.code = FW_DEADLINE_EXCEEDED};
            snprintf(quiet.message, sizeof quiet.message, "no event within %d ms", EVENT_TIMEOUT_MS);
            note_error(&t, "receiving", &quiet);
            break;
        }
        ended = !take(&t, &ev);
    }
    fw_unsubscribe(sub, NULL);
    fw_close(c);

    qsort(t.since_received_ms, t.results, sizeof *t.since_received_ms, compare_double);
    double p50 = percentile(t.since_received_ms, t.results, 50), p99 = percentile(t.since_received_ms, t.results, 99);
    int status = t.errors == 0 && t.end == FW_END_SESSION_CLOSED ? 0 : 1;
    if (events_path && write_events(events_path, &t) != 0) {
        fprintf(stderr, "face-bench: cannot write %s: %s\n", events_path, strerror(errno));
        status = 1;
    }
    if (json) {
        printf("{\"mode\":\"subscribe\",\"answered\":%zu,\"dropped\":%zu,\"errors\":%zu,\"missed\":%zu,"
               "\"resets\":%zu,\"ended\":\"%s\",\"since_received_ms\":{\"p50\":%.4f,\"p99\":%.4f},\"first_error\":",
               t.results, t.dropped, t.errors, t.missed, t.resets, end_name(t.end), p50, p99);
        if (t.first_error[0]) {
            putchar('"');
            for (const char *s = t.first_error; *s; s++)
                if (*s == '"' || *s == '\\')
                    printf("\\%c", *s);
                else if ((unsigned char)*s >= 0x20)
                    putchar(*s);
            printf("\"}\n");
        } else {
            printf("null}\n");
        }
    } else {
        printf("face-bench: followed \"%s\": %zu results, %zu dropped, %zu frame errors, %zu events missed, "
               "%zu resets; ended: %s\n",
               name, t.results, t.dropped, t.errors, t.missed, t.resets, end_name(t.end));
        printf("latency:    p50 %.2f  p99 %.2f ms (the worker receiving a frame to its result here)\n", p50, p99);
        if (t.first_error[0])
            printf("first error: %s\n", t.first_error);
    }
    free(t.log);
    free(t.since_received_ms);
    return status;
}
