/*
 * What face-bench's parts share: its settings, one session's run and what
 * it measured, and the steps every mode takes (the clock, pacing, recording
 * an answer, the frame to send).
 */
#ifndef FACE_BENCH_RUN_H
#define FACE_BENCH_RUN_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "faceworker.h"
#include "frames.h"

/* Distinct synthetic frames; sessions cycle through them. */
#define SYNTHETIC_FRAMES 60
/* How long a session waits for any answer before it counts an error. */
#define ANSWER_TIMEOUT_MS 30000
#define FIXTURE "Tests/Fixtures/astronaut.jpg"

enum { STAGE_QUEUED, STAGE_DECODE, STAGE_DETECT, STAGE_LANDMARKS, STAGE_TOTAL, STAGES };
extern const char *const stage_names[STAGES];

enum bench_mode { MODE_VIDEO, MODE_LIVE, MODE_PING, MODE_ECHO, MODE_SUBSCRIBE };
extern const char *const mode_names[];
/* How long the producer waits for its subscribers, and a subscriber for
 * the session it follows to open. */
#define RENDEZVOUS_S 60

/* One raw frame from a file, sent in place of JPEG files. */
struct raw_input {
    const char *path;
    uint8_t *bytes;
    size_t len;
    fw_pixel_format format;
    uint32_t width, height;
};
/* An empty Ping's size on the wire: the 5-byte frame header and its
 * message. */
#define ECHO_BYTES 12

struct config {
    const char *socket_path;
    int sessions;
    enum bench_mode mode;
    double fps; /* 0: as fast as possible */
    size_t frames;
    const char *dir;
    const char *source;
    bool landmarks;
    bool landmarker; /* the Face Landmarker with blendshapes and matrix, as MediaPipe Tasks runs it */
    uint32_t num_faces;
    bool json;
    const char *samples; /* file for every round trip, or NULL */
    int busy_poll_us;
    struct raw_input raw;   /* bytes NULL: JPEG frames */
    bool shared_memory;     /* frames written once into a buffer, sent as regions */
    const char *name;       /* the session's name, or the one to follow */
    int wait_subscribers;   /* subscriptions to wait for before sending */
    const char *events;     /* file for every answer's send and arrival times */
};

/* One answer, for --events: the frame, what came, and when it was sent and
 * arrived on the host's wall clock. */
struct answer_time {
    int64_t timestamp_ms;
    const char *kind;
    int64_t sent_unix_ns, arrived_unix_ns;
};

/* One session's run: its inputs, and what it measured. */
struct run {
    const struct config *cfg;
    const bench_frames *frames;
    pthread_barrier_t *start;
    int64_t *timestamps; /* per frame, strictly increasing */
    int64_t *sent_ns;    /* per frame, when it was sent */
    /* Per answer, in ns: round trip at sub-microsecond resolution, since a
     * Ping takes only a few microseconds. */
    uint64_t *latency_ns;
    uint64_t *overhead_ns; /* round trip minus the worker's total */
    uint64_t *stage_ns[STAGES];
    size_t answered, sent, dropped, errors, faces;
    int64_t first_send_ns, last_answer_ns;
    char first_error[FW_ERROR_MESSAGE_SIZE + 64];
    fw_buffer *buffer;       /* with --shared-memory */
    size_t *offsets;         /* where each JPEG frame is in it */
    int64_t *sent_unix_ns;   /* per frame, with --events */
    struct answer_time *log; /* per answer, with --events */
    size_t logged;
};

int64_t now_ns(void);
void sleep_until(int64_t t_ns);
__attribute__((format(printf, 2, 3))) void record_error(struct run *r, const char *fmt, ...);
/* Whether a call's error means the connection is gone. */
bool connection_gone(int rc);
void record_result(struct run *r, const fw_result *result, int64_t sent, int64_t received);
void record_ping(struct run *r, int64_t sent, int64_t received);
fw_frame frame_for(const struct run *r, size_t i);
void log_answer(struct run *r, size_t i, const char *kind);
int place_frames(struct run *r, fw_client *c, fw_error *err);
int64_t period_ns(const struct config *cfg);
void run_paced(struct run *r, bool (*step)(struct run *, size_t, void *), void *ctx);

/* video.c: one frame, then its result, frame after frame. */
void run_video(struct run *r, fw_session *s);
/* live.c: frames sent on schedule, answers taken as they come. */
void run_live(struct run *r, fw_session *s);
/* floor.c: the round trips under every request: empty Pings, and the bare
 * echo process's. */
void run_ping(struct run *r, fw_client *c);
void run_echo(struct run *r);

#endif
