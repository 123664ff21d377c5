/*
 * face-bench's report: the sessions' measures joined and summarized, in
 * words or as JSON, and the raw samples and answer times on request.
 */
#ifndef FACE_BENCH_REPORT_H
#define FACE_BENCH_REPORT_H

#include "run.h"

struct summary {
    size_t sent, answered, dropped, errors, faces;
    double p50, p90, p99, max;
    double overhead_p50;
    double stage_p50[STAGES];
    double seconds, throughput;
    long max_rss_kib;
    const char *first_error;
};

/* Joins the sessions' arrays into one sorted array per measure. */
int summarize(struct run *runs, int n, struct summary *out);
void print_json(const struct config *cfg, const bench_frames *frames, const struct summary *s);
void print_text(const struct config *cfg, const bench_frames *frames, const struct summary *s);
/* Every round trip in µs, one per line, session after session, for
 * histograms and statistics of the caller's own. */
int write_samples(const char *path, const struct run *runs, int n);
/* Every answer's times, for joining with a subscriber's (subscriber.h). */
int write_events(const char *path, const struct run *runs, int n);

#endif
