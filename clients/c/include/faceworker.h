/*
 * faceworker.h - C client for FaceWorker, the local face-detection service.
 *
 * A client (fw_client) is one connection to a face-worker process over its
 * Unix socket. A client hosts sessions (fw_session): one stream of frames
 * each, with its own options and tracking state. Frames go in, and results
 * (fw_result) come back tagged with each frame's timestamp.
 *
 *     fw_error err;
 *     fw_client *c = fw_connect(NULL, &err);
 *     fw_session_options opt;
 *     fw_session_options_init(&opt);
 *     fw_session *s = fw_open_session(c, &opt, &err);
 *     fw_result *r;
 *     if (fw_process_jpeg(s, jpeg, jpeg_len, 0, &r, &err) == FW_OK) {
 *         for (size_t i = 0; i < fw_result_face_count(r); i++)
 *             use(fw_face_box(fw_result_face(r, i)));
 *         fw_result_free(r);
 *     }
 *     fw_close(c);       (also closes s)
 *
 * RUNNING MODES. IMAGE and VIDEO sessions use the blocking fw_process*(): it
 * sends one frame and waits for its result. LIVE_STREAM sessions use
 * fw_send*(), which does not wait for the answer, and fw_poll(), which
 * returns answers as they arrive: a result, or a notice that the worker
 * dropped the frame because a newer one replaced it while it waited.
 *
 * ERRORS. Every function that can fail returns FW_OK (0) or an error code
 * (functions returning a handle return NULL instead) and, when its `err`
 * argument is not NULL, fills *err with the code and a message for people.
 * Positive codes are the worker's gRPC status codes (fw_status); negative
 * codes are raised by this library (FW_ERR_*). Codes from the worker about
 * one call (a bad option, a bad image, a timestamp that does not increase)
 * leave the client and the session usable. FW_ERR_IO, FW_ERR_CLOSED and
 * FW_ERR_PROTOCOL mean the connection is gone: every later call on the
 * client fails with the same error until fw_reconnect(). Auto-reconnect,
 * on by default, connects again by itself when the connection closes or
 * fails (see Reconnecting), so calls do not see FW_ERR_CLOSED or FW_ERR_IO.
 *
 * MEMORY. The library allocates only what it returns to you, plus buffers
 * inside a client that fw_close() frees. Each returned pointer says below
 * who owns it. Input buffers are only read during the call.
 *
 * THREADS. A client, its sessions and its results may be used by one thread
 * at a time. Different clients are independent: one client per thread needs
 * no locking. The library has no global state and installs no signal
 * handlers (it writes with MSG_NOSIGNAL, so a dead worker is an error, not
 * SIGPIPE).
 *
 * ABI. The library's soname is libfaceworker.so.4, and 2.0 is meant to be
 * its last bump. The structs a caller allocates and the library reads or
 * fills (fw_session_options, fw_frame, fw_stats, fw_reconnect_options, and
 * fw_async_handlers and fw_loop_hooks) begin with `size`: the caller's
 * sizeof the struct, which their init functions set. A later version adds
 * members only at their end and reads or writes only the bytes the
 * caller's size covers, so a program built against 2.0 runs on every 2.x;
 * new fields and functions are minor versions. For all but the last two,
 * a size of 0 stands for 2.0's layout, so that a zero-initialised struct,
 * such as `fw_frame f = {.jpeg = ...}`, is a 2.0 struct. The events the
 * library fills (fw_event, fw_subscription_event) carry a `size` too, set
 * by the library: the bytes it filled in, which a program checks before it
 * reads a member newer than 2.0's (FW_STRUCT_HAS). Opaque handles
 * (fw_client, fw_session, fw_result, ...) grow freely. `make test` checks
 * the exported ABI against a committed baseline with abidiff.
 *
 * The wire contract behind every call and field is
 * proto/faceworker/v1/faceworker.proto; the names here follow it.
 */
#ifndef FACEWORKER_H
#define FACEWORKER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) && defined(FW_BUILDING_LIBRARY)
#define FW_API __attribute__((visibility("default")))
#else
#define FW_API
#endif

/* Whether a struct that carries its size (`size`, see ABI above) holds
 * `member`: FW_STRUCT_HAS(fw_event, ev, result). */
#define FW_STRUCT_HAS(type, p, member) \
    ((size_t)(p)->size >= offsetof(type, member) + sizeof(((type *)0)->member))

#define FW_VERSION_MAJOR 2
#define FW_VERSION_MINOR 0
#define FW_VERSION_PATCH 0

/* ------------------------------------------------------------------------
 * Status codes and errors
 * ------------------------------------------------------------------------ */

typedef enum fw_status {
    FW_OK = 0,
    /* The worker's codes: gRPC's status codes, with gRPC's numbers. */
    FW_CANCELLED = 1,
    FW_UNKNOWN = 2,
    FW_INVALID_ARGUMENT = 3,   /* bad option, undecodable image, timestamp */
    FW_DEADLINE_EXCEEDED = 4,  /* also: no answer within fw_set_timeout() */
    FW_NOT_FOUND = 5,
    FW_ALREADY_EXISTS = 6,
    FW_PERMISSION_DENIED = 7,
    FW_RESOURCE_EXHAUSTED = 8, /* a worker limit: size, pixels, sessions */
    FW_FAILED_PRECONDITION = 9,
    FW_ABORTED = 10,
    FW_OUT_OF_RANGE = 11,
    FW_UNIMPLEMENTED = 12,
    FW_INTERNAL = 13,
    FW_UNAVAILABLE = 14,       /* the worker is shutting down, went away during
                                  the call, or did not come back */
    FW_DATA_LOSS = 15,
    FW_UNAUTHENTICATED = 16,
    /* This library's codes. */
    FW_ERR_USAGE = -1,    /* bad argument, or a call the session's mode forbids */
    FW_ERR_NOMEM = -2,    /* out of memory */
    FW_ERR_CONNECT = -3,  /* no worker listens on the socket path */
    FW_ERR_IO = -4,       /* reading or writing the socket failed */
    FW_ERR_CLOSED = -5,   /* the worker closed the connection */
    FW_ERR_PROTOCOL = -6, /* the worker broke the wire protocol: a flag byte
                             other than 0, a message over FW_MAX_ANSWER_BYTES,
                             bytes that are no WorkerMessage, an answer to no
                             call or of the wrong kind */
    FW_ERR_DROPPED = -7,  /* the worker dropped the frame without processing it */
    FW_ERR_SYSTEM = -8    /* a system call for shared memory failed (making,
                             sizing, sealing or mapping a memfd, or handing it
                             to the worker); the client stays usable */
} fw_status;

#define FW_ERROR_MESSAGE_SIZE 256

typedef struct fw_error {
    int code;    /* an fw_status value */
    int sys_errno; /* errno behind FW_ERR_CONNECT, FW_ERR_IO and FW_ERR_SYSTEM, else 0 */
    /* NUL-terminated; the worker's own message for its codes (truncated to
     * fit). Wording may change between versions: match on `code`. */
    char message[FW_ERROR_MESSAGE_SIZE];
} fw_error;

/* The code's name, such as "INVALID_ARGUMENT" or "ERR_CONNECT"; "?" for an
 * unknown code. The string is static. */
FW_API const char *fw_status_name(int code);

/* ------------------------------------------------------------------------
 * Connections
 * ------------------------------------------------------------------------ */

typedef struct fw_client fw_client;

/* Writes into buf the path fw_connect(NULL) connects to, by the socket rule
 * that face-worker follows too (proto/faceworker/v1/defaults.json):
 *   1. $FACEWORKER_SOCKET, when it is set and not empty;
 *   2. else $XDG_RUNTIME_DIR/faceworker.sock, when XDG_RUNTIME_DIR holds an
 *      absolute path;
 *   3. else /tmp/faceworker-<euid>.sock.
 * An explicit path given to fw_connect() comes before all three. Returns
 * the path's length, or -1 if it needs more than size - 1 bytes (buf then
 * holds an empty string). */
FW_API int fw_default_socket_path(char *buf, size_t size);

/* The longest message this client accepts from the worker, 64 MiB
 * (client.max_answer_bytes of proto/faceworker/v1/defaults.json). A longer
 * length in a header means the stream is corrupt: it is refused with
 * FW_ERR_PROTOCOL before anything is allocated for it. */
#define FW_MAX_ANSWER_BYTES (64u * 1024u * 1024u)

/* Connects to the worker listening on socket_path (NULL: the path
 * fw_default_socket_path() gives, so FACEWORKER_SOCKET can pick the worker
 * of a program that passes NULL). Returns a client that the caller owns and
 * releases with fw_close(), or NULL with FW_ERR_CONNECT when no worker
 * answers there. */
FW_API fw_client *fw_connect(const char *socket_path, fw_error *err);

/* Closes the connection and frees the client, its open sessions and their
 * unread events, its subscriptions and its shared-memory buffers (unmapped
 * and closed). The worker closes those sessions too. Results already
 * returned stay valid until fw_result_free(). NULL is ignored. */
FW_API void fw_close(fw_client *client);

/* Bounds every blocking call of the client (fw_open_session,
 * fw_process*, fw_close_session, fw_reset_session, fw_ping, fw_get_stats,
 * fw_subscribe, fw_unsubscribe, fw_register_buffer, fw_unregister_buffer):
 * when no answer arrives within timeout_ms, the call fails with
 * FW_DEADLINE_EXCEEDED and the client ignores the late answer. It also
 * bounds writing a request, for fw_send*() too: a request that could not be
 * written at all fails the same way; one cut short breaks the connection
 * (FW_ERR_IO). A negative value (the default) waits as long as it takes. */
FW_API void fw_set_timeout(fw_client *client, int timeout_ms);

/* ------------------------------------------------------------------------
 * Reconnecting
 *
 * A worker restart (systemctl restart, an upgrade, a crash and
 * Restart=on-failure) breaks the connection. By default a client survives
 * it by itself (auto-reconnect, see fw_set_auto_reconnect()): the next call
 * that finds the connection gone, or its worker stopping, connects again to
 * the same socket path before it does its work. With auto-reconnect off,
 * calls fail with FW_ERR_CLOSED or FW_ERR_IO (or FW_UNAVAILABLE while the
 * old worker drains) until the application calls fw_reconnect(), as in
 * hiredis. Either way every handle the application holds stays valid, and
 * a reconnect brings back everything the client held:
 *
 *   - Each open session is opened again with its options and its name
 *     (fw_session_id() changes). Tracking starts anew: the session's first
 *     result after it has fw_result_session_restarted() set, and fw_poll()
 *     returns FW_EVENT_RESTARTED once.
 *   - Each shared-memory buffer is registered again (fw_buffer_id()
 *     changes; the memory and its contents stay).
 *   - Each subscription that has not ended, or ended only because the
 *     worker stopped (FW_END_WORKER_STOPPING), is subscribed again by its
 *     name: fw_receive() returns FW_SUB_RESTARTED once, then the new
 *     worker's events.
 *
 * Nothing is lost or answered twice. Each frame sent with fw_send() and
 * never answered comes out of fw_poll() as FW_EVENT_DROPPED with
 * FW_DROP_WORKER_RESTARTED, after the answers that came before the cut and
 * before FW_EVENT_RESTARTED. A blocking call (fw_process(), fw_ping(),
 * fw_open_session(), ...) that was waiting for its answer when the
 * connection broke has failed, once; it is not sent again, since the old
 * worker may have acted on it, and the next call works.
 * ------------------------------------------------------------------------ */

/* How a reconnect waits for a worker. Fill it with
 * fw_reconnect_options_init(), then change what you need. */
typedef struct fw_reconnect_options {
    size_t size;          /* sizeof(fw_reconnect_options), or 0 for 2.0's */
    int initial_delay_ms; /* the wait after the first failed attempt (50) */
    int max_delay_ms;     /* the wait doubles up to this (500) */
    int deadline_ms;      /* give up this long after the reconnect began (30000) */
} fw_reconnect_options;

FW_API void fw_reconnect_options_init(fw_reconnect_options *options);

/* Reads what the client's connection still holds (waiting, up to the
 * deadline, for a stopping worker to answer what it read and close it),
 * closes it, whatever its state, and connects again to the same socket
 * path, with attempts a doubling wait apart until options->deadline_ms
 * (NULL: the defaults) has passed, bringing back everything the client held
 * (see above). Under socket activation the socket outlives the worker, so
 * an attempt waits in its queue for the new worker rather than failing.
 * An attempt's calls wait for answers no longer than fw_set_timeout() and
 * the deadline allow, but at least initial_delay_ms, so that the last
 * attempt, at the deadline, can still be answered.
 *
 * Returns FW_OK, or, with the connection left broken by that error:
 * FW_UNAVAILABLE when no worker came back within the deadline; the
 * worker's own error and message when it refused a session, buffer or
 * subscription for a reason no retry changes (FW_FAILED_PRECONDITION,
 * FW_RESOURCE_EXHAUSTED, FW_INVALID_ARGUMENT, ...; FW_NOT_FOUND for a
 * subscribed name that has not come back is retried until the deadline);
 * FW_ERR_PROTOCOL for a worker that speaks another protocol. Every later
 * call fails at once with that error, auto-reconnect or not, until
 * fw_reconnect() succeeds.
 *
 * In async mode (fw_async_start()) it only starts the reconnect and returns
 * FW_OK: the attempts run on the loop, as under auto-reconnect there, and
 * the handlers hear how it ends. */
FW_API int fw_reconnect(fw_client *client, const fw_reconnect_options *options, fw_error *err);

/* Turns auto-reconnect on or off. It is on from fw_connect(), with the
 * defaults of fw_reconnect_options_init(); options is copied (NULL, or a
 * size no version has: the defaults). With it on:
 *
 *   - A call that writes a request first takes what the worker sent
 *     meanwhile (one poll(2) that does not wait). When it finds the
 *     connection closed or failed (where auto-reconnect off says
 *     FW_ERR_CLOSED or FW_ERR_IO), or its worker stopping (an FW_UNAVAILABLE
 *     refusal, an FW_END_WORKER_STOPPING end), it reconnects as
 *     fw_reconnect() does with these options, then does its work. It may
 *     wait up to options->deadline_ms for that.
 *   - A blocking call whose connection breaks while it waits for its answer,
 *     or that a stopping worker refuses, fails once with FW_UNAVAILABLE and
 *     a message that says so and that the next call connects again.
 *     fw_send() of a frame whose connection breaks while it is written
 *     returns FW_OK: the frame is in flight, and comes out of fw_poll() as
 *     dropped, as the others the cut leaves unanswered do.
 *   - fw_poll() and fw_receive() reconnect when the connection breaks under
 *     them (waiting, then, past their own timeout, up to the deadline), so
 *     that a loop of fw_send() and fw_poll(), or of fw_receive(), runs on
 *     across a restart. They read a stopping worker's connection to its
 *     end first, for the answers it still owes.
 *   - A subscription does not end when the worker stops: its next event is
 *     FW_SUB_RESTARTED.
 *   - fw_set_restart_drops() is in effect, whatever it was set to.
 *   - fw_close_session(), fw_unsubscribe() and fw_unregister_buffer() on a
 *     connection that is gone or going free their handle and return FW_OK
 *     without reconnecting: what they end went with the connection.
 *
 * When the reconnect gives up, the call that made it returns its error
 * (see fw_reconnect()), and later calls fail at once with it: nothing
 * waits for a worker again until the application calls fw_reconnect(). A
 * connection that broke for another reason (FW_ERR_PROTOCOL, FW_ERR_NOMEM)
 * is left broken, as with auto-reconnect off. */
FW_API void fw_set_auto_reconnect(fw_client *client, bool on, const fw_reconnect_options *options);

/* For an application that calls fw_reconnect() itself after a restart: with
 * on, a frame sent with fw_send() that a stopping worker refuses with
 * FW_UNAVAILABLE comes out of fw_poll() as FW_EVENT_DROPPED with
 * FW_DROP_WORKER_RESTARTED, as the frames the cut leaves unanswered do,
 * rather than as FW_EVENT_ERROR. Off by default; always in effect under
 * auto-reconnect. */
FW_API void fw_set_restart_drops(fw_client *client, bool on);

/* The longest busy-poll window fw_set_busy_poll() accepts: 10 ms. */
#define FW_BUSY_POLL_MAX_US 10000

/* Lets every wait of the client for the worker first spin for up to
 * busy_poll_us microseconds, checking the socket without sleeping, and only
 * then sleep in poll(2) (as the kernel's SO_BUSY_POLL does for network
 * sockets). A thread asleep on an idle machine can take tens of
 * microseconds to wake, most of a Ping's round trip on a virtual machine;
 * spinning trades up to that much CPU time per wait for latency. 0 (the
 * default) never spins; values are clamped to 0..FW_BUSY_POLL_MAX_US. The
 * timeout of fw_set_timeout() still holds. */
FW_API void fw_set_busy_poll(fw_client *client, int busy_poll_us);

/* Asks the worker to echo payload (len bytes; NULL when len is 0) and
 * checks the echo. */
FW_API int fw_ping(fw_client *client, const void *payload, size_t len, fw_error *err);

/* ------------------------------------------------------------------------
 * Sessions
 * ------------------------------------------------------------------------ */

typedef enum fw_running_mode {
    FW_MODE_IMAGE = 0,      /* frames are independent; fw_process*() */
    FW_MODE_VIDEO = 1,      /* timestamps increase; tracking; fw_process*() */
    FW_MODE_LIVE_STREAM = 2 /* fw_send*() and fw_poll(); the worker may drop */
} fw_running_mode;

typedef enum fw_performance_mode {
    FW_PERFORMANCE_FAST = 0,    /* short-range detector, faces within ~2 m */
    FW_PERFORMANCE_ACCURATE = 1 /* full-range detector, also small faces */
} fw_performance_mode;

/* The landmark models behind the face mesh and what is derived from it
 * (landmarks, contours, classification, head angles, matrix, blendshapes). */
typedef enum fw_mesh_model {
    FW_MESH_ATTENTION_MESH = 1, /* MediaPipe's legacy Face Mesh: about four times
                                   cheaper, no blendshapes */
    FW_MESH_FACE_LANDMARKER = 2, /* MediaPipe Tasks' Face Landmarker
                                    (face_landmarker.task): a worker without the
                                    bundle refuses it with FW_FAILED_PRECONDITION */
    FW_MESH_FACE_MESH = 3        /* MediaPipe's legacy Face Mesh unrefined: its
                                    own 468 points, no irises, no blendshapes */
} fw_mesh_model;

/* Every option of a session. Fill it with fw_session_options_init(), then
 * change what you need. The worker validates the values: one out of range
 * makes fw_open_session() fail with FW_INVALID_ARGUMENT and its message. */
typedef struct fw_session_options {
    size_t size;                          /* sizeof(fw_session_options); 0: 2.0's */
    fw_running_mode running_mode;         /* IMAGE */
    fw_performance_mode performance_mode; /* FAST */
    bool landmarks;                       /* ML Kit's 10 landmarks; false */
    bool contours;                        /* ML Kit's 15 contours; false */
    bool classification;                  /* smiling, eyes open; false */
    float min_face_size;                  /* face width / image width; 0.1 */
    bool tracking_enabled;                /* tracking IDs (not in IMAGE); false */
    float min_detection_confidence;       /* 0.5 */
    float min_suppression_threshold;      /* NMS IoU; 0.3 */
    uint32_t num_faces;                   /* most faces per frame; 1 */
    float min_face_presence_confidence;   /* 0.5 */
    float min_tracking_confidence;        /* IoU matching detections to followed faces; 0.5 */
    bool output_face_mesh;                /* 478 points per face; false */
    bool output_transformation_matrix;    /* 4x4 matrix per face; false */
    uint32_t detector_interval_frames;    /* with the mesh, fewer faces than num_faces:
                                             detect on 1 frame in this many; 5 */
    uint32_t max_missed_frames;           /* frames a lost face keeps its ID; 3 */
    bool refuse_damaged_jpeg;             /* refuse a damaged JPEG instead of decoding
                                             it with a warning; false */
    fw_mesh_model mesh_model;             /* ATTENTION_MESH */
    bool output_face_blendshapes;         /* 52 scores per face, needs mesh_model
                                             FACE_LANDMARKER (FW_INVALID_ARGUMENT
                                             otherwise); false */
} fw_session_options;

/* Sets every option to its documented default (shown beside each field),
 * and `size`. */
FW_API void fw_session_options_init(fw_session_options *options);

typedef struct fw_session fw_session;

/* Opens a session on the client with the given options (NULL: defaults).
 * The session belongs to the client: free it with fw_close_session(), or
 * let fw_close() free it. */
FW_API fw_session *fw_open_session(fw_client *client, const fw_session_options *options,
                                   fw_error *err);

/* The longest session name, in bytes. */
#define FW_SESSION_NAME_MAX 128

/* Opens a session as fw_open_session() does, shared under `name` (1 to
 * FW_SESSION_NAME_MAX bytes of UTF-8 without control characters, unique
 * among the worker's open sessions): other clients may follow it with
 * fw_subscribe(). The worker refuses a bad name with FW_INVALID_ARGUMENT
 * and one in use with FW_ALREADY_EXISTS; the name is free again once the
 * session is closed. */
FW_API fw_session *fw_open_named_session(fw_client *client, const fw_session_options *options, const char *name,
                                         fw_error *err);

/* The session's name, owned by the session; "" for a private session. */
FW_API const char *fw_session_name(const fw_session *session);

/* The options in effect, as the worker reported them at opening: each
 * field as asked, unless the worker capped it (such as num_faces). Fills
 * the members out->size covers (0: 2.0's); initialise it first. */
FW_API void fw_session_get_options(const fw_session *session, fw_session_options *out);

/* The worker's id for the session; never 0. */
FW_API uint64_t fw_session_id(const fw_session *session);

/* The number of blendshape scores a face has with output_face_blendshapes. */
#define FW_BLENDSHAPE_COUNT 52

/* With options.output_face_blendshapes, the names of the scores
 * fw_face_blendshapes() returns, in the same order: sets *count (52) and
 * returns the NUL-terminated names, MediaPipe's category names such as
 * "jawOpen" ("_neutral" first), owned by the session. Without the option,
 * sets *count to 0 and returns NULL. */
FW_API const char *const *fw_session_blendshape_names(const fw_session *session, size_t *count);

/* Closes the session on the worker and frees it, with any unread events,
 * whatever the outcome: the handle is invalid after the call. Frames still
 * waiting in the worker are dropped. NULL is ignored (returns FW_OK). */
FW_API int fw_close_session(fw_session *session, fw_error *err);

/* Forgets the session's tracked faces, tracking IDs and last timestamp, so
 * a video can jump (a seek, a new file). Frames still waiting are dropped. */
FW_API int fw_reset_session(fw_session *session, fw_error *err);

/* ------------------------------------------------------------------------
 * Frames
 * ------------------------------------------------------------------------ */

typedef enum fw_pixel_format {
    FW_PIXEL_RGB = 1,
    FW_PIXEL_RGBA = 2,
    FW_PIXEL_BGRA = 3,
    FW_PIXEL_BGR = 4,
    FW_PIXEL_GRAY8 = 5,
    FW_PIXEL_NV12 = 6, /* BT.601 limited range, as are NV21 and I420 */
    FW_PIXEL_NV21 = 7,
    FW_PIXEL_I420 = 8
} fw_pixel_format;

/* How stored pixels turn upright: the EXIF orientations, named as in ML Kit.
 * The EXIF tag value is the enum value plus 1. Results always refer to the
 * upright image. */
typedef enum fw_orientation {
    FW_ORIENTATION_TOP_LEFT = 0, /* already upright */
    FW_ORIENTATION_TOP_RIGHT = 1,
    FW_ORIENTATION_BOTTOM_RIGHT = 2,
    FW_ORIENTATION_BOTTOM_LEFT = 3,
    FW_ORIENTATION_LEFT_TOP = 4,
    FW_ORIENTATION_RIGHT_TOP = 5, /* rotate 90 degrees clockwise */
    FW_ORIENTATION_RIGHT_BOTTOM = 6,
    FW_ORIENTATION_LEFT_BOTTOM = 7 /* rotate 90 degrees counter-clockwise */
} fw_orientation;

typedef struct fw_buffer fw_buffer;

/* Bytes of a shared-memory buffer of the frame's client (see Shared memory
 * below): `length` bytes from `offset`. */
typedef struct fw_region {
    const fw_buffer *buffer;
    size_t offset;
    size_t length;
} fw_region;

/* One frame. Exactly one of these is set:
 *   `jpeg`                 jpeg_len bytes of a JPEG file (any EXIF
 *                          orientation inside is ignored);
 *   `pixels`               pixels_len bytes laid out as format, width,
 *                          height and row_stride describe (row_stride 0
 *                          means rows are tightly packed);
 *   `jpeg_region.buffer`   a JPEG file, exactly the region's bytes;
 *   `pixels_region.buffer` pixels as for `pixels`, the region holding
 *                          exactly the layout's bytes.
 * Zero-initialise it and set what applies. The worker reads a region from
 * when the frame is sent until its answer arrives (its result, drop notice
 * or error): write that region again only after. The worker judges regions:
 * one past the end of its buffer is FW_OUT_OF_RANGE, an empty one
 * FW_INVALID_ARGUMENT; a buffer of another client is FW_ERR_USAGE. */
typedef struct fw_frame {
    size_t size; /* sizeof(fw_frame), or 0 for 2.0's */
    const uint8_t *jpeg;
    size_t jpeg_len;
    const uint8_t *pixels;
    size_t pixels_len;
    fw_pixel_format format;
    uint32_t width;
    uint32_t height;
    uint32_t row_stride;
    fw_orientation orientation;
    /* Milliseconds, echoed in the answer. VIDEO and LIVE_STREAM sessions
     * need each frame's timestamp above the previous one's. */
    int64_t timestamp_ms;
    fw_region jpeg_region;
    fw_region pixels_region;
} fw_frame;

typedef struct fw_result fw_result;

/* IMAGE and VIDEO sessions: sends the frame and waits for its result. On
 * FW_OK, *out is a result the caller owns (fw_result_free()); otherwise *out
 * is NULL. The worker's refusal of a frame (such as FW_INVALID_ARGUMENT for
 * an image it cannot decode or a timestamp that does not increase) leaves
 * the session usable. A LIVE_STREAM session gets FW_ERR_USAGE. */
FW_API int fw_process(fw_session *session, const fw_frame *frame, fw_result **out, fw_error *err);

/* fw_process() of an upright JPEG. */
FW_API int fw_process_jpeg(fw_session *session, const uint8_t *jpeg, size_t len,
                           int64_t timestamp_ms, fw_result **out, fw_error *err);

/* Sends the frame without waiting for its answer, which fw_poll() returns
 * later. Returns as soon as the frame is written to the socket (blocking
 * only while the socket's buffer is full; in async mode never: it is
 * fw_send_nonblock() there). Any running mode may use it; in
 * VIDEO mode answers come in order, in LIVE_STREAM mode as they are ready. */
FW_API int fw_send(fw_session *session, const fw_frame *frame, fw_error *err);

/* fw_send() of an upright JPEG. */
FW_API int fw_send_jpeg(fw_session *session, const uint8_t *jpeg, size_t len,
                        int64_t timestamp_ms, fw_error *err);

typedef enum fw_event_type {
    FW_EVENT_NONE = 0,    /* nothing arrived within the timeout */
    FW_EVENT_RESULT = 1,  /* the frame's result: `result` */
    FW_EVENT_DROPPED = 2, /* the frame was never processed: `drop_reason` */
    FW_EVENT_ERROR = 3,   /* the worker refused the frame: `error` */
    FW_EVENT_RESTARTED = 4 /* the client reconnected and opened the session
                              again on a restarted worker: tracking starts
                              anew. Once per outage, after the drops of the
                              frames it cut off; no frame's answer */
} fw_event_type;

typedef enum fw_drop_reason {
    FW_DROP_UNSPECIFIED = 0,
    FW_DROP_REPLACED = 1, /* a newer frame took its place (LIVE_STREAM) */
    FW_DROP_SESSION_CLOSED = 2,
    FW_DROP_SESSION_RESET = 3,
    FW_DROP_WORKER_RESTARTED = 4 /* the worker stopped before answering: never
                                    sent by the worker (see faceworker.proto) */
} fw_drop_reason;

/* The answer to one fw_send(), or a session's restart notice.
 *
 * `size` is the number of bytes of the struct the library filled in: the
 * event can grow by members appended at its end (a minor version), so a
 * program that reads a member newer than 2.0's checks first that `size`
 * covers it, with FW_STRUCT_HAS(fw_event, ev, member): a library older
 * than the program's header leaves it out. The events handed to
 * fw_async_handlers.on_event are the library's, and carry every member it
 * knows; fw_poll() fills the caller's struct, and so only ever 2.0's
 * members. `size` sits in the padding after `type`, where 2.0's layout
 * left four bytes unused, so that the members and the struct's size stay
 * where 2.0 put them. */
typedef struct fw_event {
    fw_event_type type;
    uint32_t size;        /* the bytes the library filled in */
    int64_t timestamp_ms; /* the frame's timestamp (not for FW_EVENT_NONE and
                             FW_EVENT_RESTARTED) */
    fw_result *result;    /* FW_EVENT_RESULT: owned by the caller, who frees it
                             with fw_result_free(); NULL otherwise */
    fw_drop_reason drop_reason; /* FW_EVENT_DROPPED */
    fw_error error;             /* FW_EVENT_ERROR: the worker's code and message */
} fw_event;

/* Returns the next answer to a frame of this session sent with fw_send(),
 * or FW_EVENT_RESTARTED, waiting up to timeout_ms for one (0: do not wait;
 * negative: wait until one comes; a reconnect may wait longer, see
 * fw_set_auto_reconnect()). Answers are returned in the order they arrived.
 * With nothing to return in time, *event has type FW_EVENT_NONE and the
 * call returns FW_OK. A non-zero return is an error of the connection, not
 * of a frame. */
FW_API int fw_poll(fw_session *session, int timeout_ms, fw_event *event, fw_error *err);

/* Frames sent with fw_send() whose answers fw_poll() has not returned yet.
 * Every frame is answered, so polling until this is 0 drains the session
 * (FW_EVENT_RESTARTED answers no frame and is not counted). */
FW_API size_t fw_session_pending(const fw_session *session);

/* ------------------------------------------------------------------------
 * Subscriptions
 *
 * A subscription follows a named session of any client of the worker: it
 * receives every answer the session's frames get, in order. It belongs to
 * the client that made it; its events arrive on that client's connection
 * and wait there, whatever else the client does meanwhile, until
 * fw_receive() takes them. At most fw_subscription_queue_limit() events
 * wait in the client (the worker holds as many more): a subscriber that
 * does not keep up loses events, never slows the producer, and is told how
 * many it lost (FW_SUB_MISSED).
 * ------------------------------------------------------------------------ */

typedef struct fw_subscription fw_subscription;

/* Follows the open session named `name` (of another client: a client's
 * own session gets FW_FAILED_PRECONDITION). Errors: FW_NOT_FOUND when no
 * open session has the name, FW_INVALID_ARGUMENT for an empty name,
 * FW_RESOURCE_EXHAUSTED when the session or the client has as many
 * subscriptions as the worker allows. The subscription belongs to the
 * client: free it with fw_unsubscribe(), or let fw_close() free it. */
FW_API fw_subscription *fw_subscribe(fw_client *client, const char *name, fw_error *err);

/* The worker's id for the subscription, and the session it follows. */
FW_API uint64_t fw_subscription_id(const fw_subscription *sub);
FW_API uint64_t fw_subscription_session_id(const fw_subscription *sub);
/* The session's name, owned by the subscription. */
FW_API const char *fw_subscription_name(const fw_subscription *sub);
/* The session's options in effect, as its producer got them. */
FW_API void fw_subscription_get_options(const fw_subscription *sub, fw_session_options *out);
/* The names of the session's blendshape scores, owned by the subscription,
 * as fw_session_blendshape_names() gives them to the producer. */
FW_API const char *const *fw_subscription_blendshape_names(const fw_subscription *sub, size_t *count);
/* How many events may wait unread, in the worker and again in the client,
 * before the subscriber starts losing events. */
FW_API uint32_t fw_subscription_queue_limit(const fw_subscription *sub);

typedef enum fw_subscription_event_type {
    FW_SUB_NONE = 0,        /* nothing arrived within the timeout */
    FW_SUB_RESULT = 1,      /* a frame's result: `result` */
    FW_SUB_DROPPED = 2,     /* a frame was never processed: `drop_reason` */
    FW_SUB_FRAME_ERROR = 3, /* a frame was refused or failed: `error` */
    FW_SUB_MISSED = 4,      /* `missed` events were lost here; those after are
                               complete again */
    FW_SUB_RESET = 5,       /* the producer reset the session: tracking starts
                               again and timestamps may restart */
    FW_SUB_ENDED = 6,       /* the last event: `end_reason` */
    FW_SUB_RESTARTED = 7    /* the client reconnected and subscribed again on
                               a restarted worker: events in between were
                               lost, and the session's tracking starts anew
                               there. Once per outage */
} fw_subscription_event_type;

typedef enum fw_end_reason {
    FW_END_UNSPECIFIED = 0,
    FW_END_SESSION_CLOSED = 1,  /* the producer closed the session */
    FW_END_PRODUCER_GONE = 2,   /* the producer's connection closed */
    FW_END_UNSUBSCRIBED = 3,    /* this client unsubscribed */
    FW_END_WORKER_STOPPING = 4  /* the worker is shutting down (not an end
                                   under auto-reconnect) */
} fw_end_reason;

/* One thing that happened to a followed session. `size` is as in
 * fw_event: the bytes the library filled in, to check with FW_STRUCT_HAS()
 * before reading a member newer than 2.0's; on_subscription_event's events
 * carry every member the library knows, fw_receive() fills 2.0's. */
typedef struct fw_subscription_event {
    fw_subscription_event_type type;
    uint32_t size;        /* the bytes the library filled in */
    /* The frame's timestamp for RESULT and DROPPED, and for FRAME_ERROR when
     * the worker named it (has_timestamp); 0 otherwise. */
    int64_t timestamp_ms;
    bool has_timestamp;
    fw_result *result;          /* RESULT: owned by the caller, who frees it with
                                   fw_result_free(); NULL otherwise */
    fw_drop_reason drop_reason; /* DROPPED */
    fw_error error;             /* FRAME_ERROR: the worker's code and message */
    uint64_t missed;            /* MISSED: how many events were lost */
    fw_end_reason end_reason;   /* ENDED */
} fw_subscription_event;

/* Returns the subscription's next event, waiting up to timeout_ms for one
 * (0: do not wait; negative: wait until one comes; a reconnect may wait
 * longer, see fw_set_auto_reconnect()). With nothing in time,
 * *event has type FW_SUB_NONE and the call returns FW_OK. After the
 * FW_SUB_ENDED event the subscription has nothing more: further calls fail
 * with FW_ERR_USAGE. A non-zero return is otherwise an error of the
 * connection. */
FW_API int fw_receive(fw_subscription *sub, int timeout_ms, fw_subscription_event *event, fw_error *err);

/* Ends the subscription on the worker, unless it has ended already, and
 * frees it with its unread events, whatever the outcome: the handle is
 * invalid after the call. NULL is ignored (returns FW_OK). */
FW_API int fw_unsubscribe(fw_subscription *sub, fw_error *err);

/* ------------------------------------------------------------------------
 * Event loops
 *
 * Every call above may wait. A program that serves many cameras from one
 * thread (an epoll or libuv loop, a GStreamer element) instead lets its loop
 * wait on the client's descriptor and calls the library only when the
 * descriptor is ready. Two levels:
 *
 *   - Non-blocking calls. fw_connect_nonblock(), fw_send_nonblock() and
 *     fw_client_progress() never wait; fw_client_wants() says what the
 *     client waits for on fw_client_fd(). Answers are then taken with
 *     fw_poll(session, 0, ...) and fw_receive(sub, 0, ...).
 *   - The asynchronous front. After fw_async_start() the client hands every
 *     answer to a callback, from inside fw_async_handle(), which an adapter
 *     calls when the loop finds the descriptor ready. The adapters are
 *     headers of a few dozen lines, one per loop:
 *     <faceworker/adapters/epoll.h>, <faceworker/adapters/poll.h> and
 *     <faceworker/adapters/libuv.h>; any other loop needs the three
 *     functions of fw_loop_hooks.
 *
 * In async mode, fw_send() never waits (it is fw_send_nonblock()),
 * fw_open_session_async() opens a session at any time and hands it to a
 * callback, fw_close_session(), fw_unsubscribe() and
 * fw_unregister_buffer() send their request without waiting for the
 * answer, and every call that would wait for the worker (fw_process*(),
 * fw_poll(), fw_receive(), fw_open_session(), fw_ping(), ...) fails at
 * once with FW_ERR_USAGE and a message: subscribe and register buffers
 * before fw_async_start().
 * ------------------------------------------------------------------------ */

/* What a client waits for on its descriptor: bits of fw_client_wants(),
 * and of the `ready` argument of fw_async_handle(). */
#define FW_WANT_READ 1u
#define FW_WANT_WRITE 2u

/* The client's socket, to watch in an event loop; -1 while it has none
 * (between reconnect attempts, or after a reconnect gave up). A broken
 * connection keeps its socket until a reconnect, but fw_client_wants()
 * says 0 for it. It changes when the client reconnects: the async front
 * tells its loop through fw_loop_hooks.watch. Never read from or write to
 * it yourself. */
FW_API int fw_client_fd(const fw_client *client);

/* fw_connect() that never waits. A Unix socket mostly connects or fails at
 * once: no worker at the path is NULL with FW_ERR_CONNECT, as from
 * fw_connect(). When the worker's listen queue is full the connection is
 * still to be made when it returns: fw_client_wants() then says
 * FW_WANT_WRITE, fw_client_progress() tries again, and a failure comes out
 * of it as FW_ERR_CONNECT. A blocking call on a client still connecting
 * fails with FW_ERR_USAGE. */
FW_API fw_client *fw_connect_nonblock(const char *socket_path, fw_error *err);

/* What the client waits for: FW_WANT_WRITE while connecting or while
 * requests wait to be written, FW_WANT_READ once connected (answers may
 * come at any time). 0 when there is no connection to wait on. */
FW_API unsigned fw_client_wants(const fw_client *client);

/* Moves the connection on without waiting: finishes connecting, writes
 * what waits to be written as far as the socket takes it, reads what has
 * arrived and routes every whole answer to its session or subscription,
 * where fw_poll(session, 0, ...) and fw_receive(sub, 0, ...) find it.
 * FW_OK, or the error that broke the connection (never reconnects: see
 * fw_reconnect()). */
FW_API int fw_client_progress(fw_client *client, fw_error *err);

/* fw_send() that never waits: the frame is queued, and the part of it the
 * socket does not take now is written by later calls of
 * fw_client_progress() (fw_client_wants() says FW_WANT_WRITE meanwhile).
 * The frame's bytes are copied: the caller's buffer is free on return. */
FW_API int fw_send_nonblock(fw_session *session, const fw_frame *frame, fw_error *err);

/* What the asynchronous front calls. Every member may be NULL. Set `size`
 * to sizeof(fw_async_handlers) (FW_ASYNC_HANDLERS_INIT does): a later
 * version that adds members reads only those an application built against
 * it has. The callbacks run inside fw_async_handle() and fw_async_timeout();
 * they may send frames, open sessions with fw_open_session_async() and
 * close them, but must not fw_close() the client. */
typedef struct fw_async_handlers {
    size_t size;
    void *data; /* handed to every callback */
    /* An answer to a frame of the session, or FW_EVENT_RESTARTED, in the
     * order fw_poll() would return them. A result is the callback's: it
     * frees it with fw_result_free() (now or later). */
    void (*on_event)(fw_session *session, fw_event *event, void *data);
    /* An event of a subscription, in the order fw_receive() would return
     * them; a result is the callback's to free. */
    void (*on_subscription_event)(fw_subscription *sub, fw_subscription_event *event, void *data);
    /* The connection broke and will not come back by itself (auto-reconnect
     * is off, gave up, or cannot mend this error): err says why. Every
     * later call fails with it until fw_reconnect(). */
    void (*on_connection_error)(fw_client *client, const fw_error *err, void *data);
} fw_async_handlers;

#define FW_ASYNC_HANDLERS_INIT {sizeof(fw_async_handlers), NULL, NULL, NULL, NULL}

/* What fw_open_session_async() calls once the worker answered: status->code
 * FW_OK with the new session (the client's, as from fw_open_session()), or
 * the reason with session NULL:
 *   - the worker's refusal (FW_INVALID_ARGUMENT for a bad option or name,
 *     FW_ALREADY_EXISTS for a name in use, FW_RESOURCE_EXHAUSTED, ...);
 *   - FW_UNAVAILABLE when the connection broke before the answer, under
 *     auto-reconnect (not sent again: the old worker may have opened it),
 *     or the error that broke it otherwise;
 *   - FW_ERR_CLOSED when fw_close() freed the client first: the callback
 *     runs inside fw_close() then, and must not use the client.
 * Otherwise it runs inside fw_async_handle() or fw_async_timeout(), as the
 * handlers do, and may do what they may. */
typedef void (*fw_open_callback)(fw_client *client, fw_session *session, const fw_error *status, void *data);

/* Asks the worker to open a session, as fw_open_session() or, with a name
 * (NULL: a private session), fw_open_named_session() does, without
 * waiting: at any time in async mode, while the loop runs. FW_OK means the
 * request is on its way and `callback` will be called exactly once, with
 * `data`. Any other return means it will not be:
 *   - FW_ERR_USAGE: no client or no callback, options whose size no
 *     version has, or a client not in async mode (fw_async_start());
 *   - FW_UNAVAILABLE: the client is reconnecting; ask again once its
 *     sessions have heard FW_EVENT_RESTARTED, or a frame is answered;
 *   - the error that broke the connection (see fw_reconnect()), or
 *     FW_ERR_NOMEM.
 * A session so opened is like any other: fw_close_session() closes it
 * (without waiting in async mode), a reconnect opens it again. */
FW_API int fw_open_session_async(fw_client *client, const fw_session_options *options, const char *name,
                                 fw_open_callback callback, void *data, fw_error *err);

/* How the client asks an event loop for what it needs; an adapter fills it
 * (set `size` to sizeof(fw_loop_hooks)). */
typedef struct fw_loop_hooks {
    size_t size;
    void *loop; /* handed to every hook */
    /* Watch fd for `wants` (FW_WANT_* bits), instead of what the previous
     * call asked; fd -1: watch nothing for now. Called whenever the
     * descriptor or the wants change. */
    void (*watch)(void *loop, fw_client *client, int fd, unsigned wants);
    /* Call fw_async_timeout() after timeout_ms, once, instead of what the
     * previous call asked (the wait before a reconnect attempt, or the
     * bound of one under way; 0 for at once, to act on something outside
     * the caller); -1 cancels. */
    void (*set_timer)(void *loop, fw_client *client, int timeout_ms);
    /* fw_close() is freeing the client: forget it. */
    void (*cleanup)(void *loop, fw_client *client);
} fw_loop_hooks;

/* Puts the client in async mode with these handlers (copied). Answers that
 * arrived before are handed to them at the next fw_async_handle(). */
FW_API int fw_async_start(fw_client *client, const fw_async_handlers *handlers, fw_error *err);

/* For adapters: connects the client to a loop (hooks copied) and asks it at
 * once to watch the descriptor. */
FW_API int fw_async_attach(fw_client *client, const fw_loop_hooks *hooks, fw_error *err);

/* For adapters: the descriptor is ready for `ready` (FW_WANT_* bits; an
 * error or hang-up on it counts as readable). Moves the connection on as
 * fw_client_progress() does, then calls the handlers for everything that
 * arrived, session by session in turn, one event each per round, so that
 * no session waits behind a busy one.
 *
 * Under auto-reconnect (or after fw_reconnect()), a connection that breaks
 * is mended as in blocking mode, with the same events: the frames it cut
 * off come to on_event as FW_DROP_WORKER_RESTARTED drops at once, then
 * FW_EVENT_RESTARTED once every session is open again; a subscription
 * hears FW_SUB_RESTARTED once it is followed again, never before; an
 * fw_open_session_async() in flight fails with FW_UNAVAILABLE. The loop
 * serves every other client and descriptor throughout, since nothing of
 * the reconnect waits:
 *   - an attempt connects without waiting, and the client asks the loop
 *     to watch its new descriptor for writing until the connect is done
 *     (a full listen queue, as under socket activation before the worker
 *     started, fails the attempt: the next waits for the timer);
 *   - it then asks for every session, shared-memory buffer and
 *     subscription again at once, and takes the answers as the loop finds
 *     the descriptor readable; the client is back when all have come;
 *   - the wait before the next attempt (doubling from initial_delay_ms),
 *     and the bound on an attempt's answers (fw_set_timeout() and the
 *     deadline allow, at least initial_delay_ms), are the loop's timer
 *     (fw_loop_hooks.set_timer), never a sleep.
 * The one exchange that waits is handing a buffer's descriptor to the
 * worker once it has answered RegisterBuffer, on a second, local
 * connection, within what the attempt has left. While the client
 * reconnects, fw_client_fd() is the attempt's socket (or -1 between
 * attempts), and a frame sent or a session asked for fails at once with
 * FW_UNAVAILABLE. When the reconnect gives up, on_connection_error says
 * why. */
FW_API void fw_async_handle(fw_client *client, unsigned ready);

/* For adapters: the timer of fw_loop_hooks.set_timer went off: a reconnect
 * attempt is due, or one under way has run out of time. */
FW_API void fw_async_timeout(fw_client *client);

/* ------------------------------------------------------------------------
 * Shared memory
 *
 * A buffer is a Linux memfd that the client and the worker both map: the
 * client writes frames into it, and frames name regions of it (fw_region)
 * instead of carrying their bytes. It belongs to the client that
 * registered it and only that client's frames may name it.
 * ------------------------------------------------------------------------ */

/* Makes a buffer of `size` bytes (a memfd sealed against shrinking, mapped
 * read-write into this process) and registers it with the worker, which
 * maps it read-only. Errors: FW_RESOURCE_EXHAUSTED when the client has as
 * many buffers, or as many mapped bytes, as the worker allows;
 * FW_ERR_SYSTEM (sys_errno set) when the memfd cannot be made or mapped, or
 * handing it to the worker fails. Free it with fw_unregister_buffer(), or let fw_close() free it. */
FW_API fw_buffer *fw_register_buffer(fw_client *client, size_t size, fw_error *err);

/* Registers a descriptor the caller made: it must be a memfd sealed against
 * shrinking (F_SEAL_SHRINK), not empty; the worker refuses anything else
 * with FW_INVALID_ARGUMENT and says why. The descriptor stays the caller's
 * (the worker holds its own copy, and so does the library until the buffer
 * is freed, to hand it to a new worker in fw_reconnect()); the library does not map it:
 * fw_buffer_data() is NULL, and the caller writes through a mapping of its
 * own. */
FW_API fw_buffer *fw_register_fd(fw_client *client, int fd, fw_error *err);

/* The buffer's bytes, to write frames into (NULL for fw_register_fd()), and
 * its size as the worker mapped it. */
FW_API void *fw_buffer_data(fw_buffer *buffer);
FW_API size_t fw_buffer_size(const fw_buffer *buffer);
/* The worker's id for the buffer. */
FW_API uint64_t fw_buffer_id(const fw_buffer *buffer);

/* Has the worker forget the buffer (it unmaps it once the frames already
 * sent from it are answered), then unmaps, closes and frees it, whatever
 * the outcome: the handle is invalid after the call. NULL is ignored
 * (returns FW_OK). */
FW_API int fw_unregister_buffer(fw_buffer *buffer, fw_error *err);

/* ------------------------------------------------------------------------
 * Results
 *
 * Pixel coordinates are floats in the upright image: (0, 0) is the top-left
 * corner of the top-left pixel, x grows right, y down. "Left" and "right"
 * mean the person's own. Every pointer a result hands out lives exactly as
 * long as the result.
 * ------------------------------------------------------------------------ */

typedef struct fw_point {
    float x, y;
} fw_point;

typedef struct fw_point3 {
    float x, y, z;
} fw_point3;

typedef struct fw_box {
    float x, y; /* top-left corner */
    float width, height;
} fw_box;

/* Time the worker spent on the frame, in microseconds. */
typedef struct fw_timings {
    int64_t received_unix_us; /* worker clock when the request was read */
    uint64_t queued_us;       /* waiting behind other frames */
    uint64_t decode_us;       /* JPEG decoding or pixel conversion */
    uint64_t detect_us;       /* face detector; 0 when it did not run */
    uint64_t landmarks_us;    /* landmark model, ML Kit outputs; 0 if not run */
    uint64_t total_us;        /* receipt to result ready, queued_us included */
} fw_timings;

typedef struct fw_face fw_face;

/* Frees a result and everything it handed out. NULL is ignored. */
FW_API void fw_result_free(fw_result *result);

FW_API int64_t fw_result_timestamp(const fw_result *result);
/* Size of the upright image, in pixels. */
FW_API uint32_t fw_result_image_width(const fw_result *result);
FW_API uint32_t fw_result_image_height(const fw_result *result);
/* False when every face was followed from the previous frame instead. */
FW_API bool fw_result_detector_ran(const fw_result *result);
/* True on the first result of a session after a reconnect opened it again
 * on a restarted worker: tracking started anew (new tracking IDs, no faces
 * followed from before). Always false for a subscription's result, which
 * hears FW_SUB_RESTARTED instead. */
FW_API bool fw_result_session_restarted(const fw_result *result);
FW_API fw_timings fw_result_timings(const fw_result *result);
/* What was wrong with the frame that did not stop it being processed (a
 * damaged JPEG decoded anyway), for people: warning i (< the count) is a
 * NUL-terminated string owned by the result. 0 for a sound frame. */
FW_API size_t fw_result_warning_count(const fw_result *result);
FW_API const char *fw_result_warning(const fw_result *result, size_t i);
/* Faces, highest detector score first. */
FW_API size_t fw_result_face_count(const fw_result *result);
/* Face i (< fw_result_face_count()), owned by the result. */
FW_API const fw_face *fw_result_face(const fw_result *result, size_t i);

FW_API fw_box fw_face_box(const fw_face *face);
FW_API float fw_face_score(const fw_face *face);

typedef enum fw_keypoint_type {
    FW_KEYPOINT_RIGHT_EYE = 1,
    FW_KEYPOINT_LEFT_EYE = 2,
    FW_KEYPOINT_NOSE_TIP = 3,
    FW_KEYPOINT_MOUTH_CENTER = 4,
    FW_KEYPOINT_RIGHT_EAR_TRAGION = 5,
    FW_KEYPOINT_LEFT_EAR_TRAGION = 6
} fw_keypoint_type;

/* The detector keypoint of that type, in pixels (position) and as a
 * fraction of the image size (normalized); either out pointer may be NULL.
 * Returns false when the face lacks it (the worker sends all six). */
FW_API bool fw_face_keypoint(const fw_face *face, fw_keypoint_type type, fw_point *position,
                             fw_point *normalized);

typedef enum fw_landmark_type {
    FW_LANDMARK_MOUTH_BOTTOM = 1,
    FW_LANDMARK_MOUTH_LEFT = 2,
    FW_LANDMARK_MOUTH_RIGHT = 3,
    FW_LANDMARK_LEFT_EYE = 4,
    FW_LANDMARK_RIGHT_EYE = 5,
    FW_LANDMARK_LEFT_EAR = 6,
    FW_LANDMARK_RIGHT_EAR = 7,
    FW_LANDMARK_LEFT_CHEEK = 8,
    FW_LANDMARK_RIGHT_CHEEK = 9,
    FW_LANDMARK_NOSE_BASE = 10
} fw_landmark_type;

/* Number of ML Kit landmarks on the face: 10 with options.landmarks, else 0. */
FW_API size_t fw_face_landmark_count(const fw_face *face);
/* The ML Kit landmark of that type, in pixels; false when absent. */
FW_API bool fw_face_landmark(const fw_face *face, fw_landmark_type type, fw_point *position);

typedef enum fw_contour_type {
    FW_CONTOUR_FACE = 1,                 /* 36 points */
    FW_CONTOUR_LEFT_EYEBROW_TOP = 2,     /* 5 */
    FW_CONTOUR_LEFT_EYEBROW_BOTTOM = 3,  /* 5 */
    FW_CONTOUR_RIGHT_EYEBROW_TOP = 4,    /* 5 */
    FW_CONTOUR_RIGHT_EYEBROW_BOTTOM = 5, /* 5 */
    FW_CONTOUR_LEFT_EYE = 6,             /* 16 */
    FW_CONTOUR_RIGHT_EYE = 7,            /* 16 */
    FW_CONTOUR_UPPER_LIP_TOP = 8,        /* 11 */
    FW_CONTOUR_UPPER_LIP_BOTTOM = 9,     /* 9 */
    FW_CONTOUR_LOWER_LIP_TOP = 10,       /* 9 */
    FW_CONTOUR_LOWER_LIP_BOTTOM = 11,    /* 9 */
    FW_CONTOUR_NOSE_BRIDGE = 12,         /* 2 */
    FW_CONTOUR_NOSE_BOTTOM = 13,         /* 3 */
    FW_CONTOUR_LEFT_CHEEK = 14,          /* 1 */
    FW_CONTOUR_RIGHT_CHEEK = 15          /* 1 */
} fw_contour_type;

/* Number of ML Kit contours on the face: 15 with options.contours, else 0. */
FW_API size_t fw_face_contour_count(const fw_face *face);
/* Copies up to cap points of the contour of that type, in pixels, into out
 * (which may be NULL when cap is 0) and returns the contour's number of
 * points: 0 when the face has no such contour, more than cap when out was
 * too small. */
FW_API size_t fw_face_contour(const fw_face *face, fw_contour_type type, fw_point *out, size_t cap);

/* The face mesh, with options.output_face_mesh, without copying: sets
 * *points to how many points the face has (478, or 0 without the option)
 * and returns the 3 * *points floats x, y, z of point 0, then of point 1,
 * and so on (NULL when there are none), owned by the result. x and y are
 * fractions of the image width and height; z is depth on about x's scale,
 * smaller is closer. Points 468-472 are the person's right iris, 473-477
 * the left. */
FW_API const float *fw_face_mesh_xyz(const fw_face *face, size_t *points);

/* The same points as fw_face_mesh_xyz(), copied: copies up to cap points
 * into out and returns how many the face has. */
FW_API size_t fw_face_mesh(const fw_face *face, fw_point3 *out, size_t cap);

/* The Face Landmarker's blendshape scores, with
 * options.output_face_blendshapes, without copying: sets *count to how many
 * the face has (FW_BLENDSHAPE_COUNT, or 0 without the option) and returns
 * them (NULL when there are none), owned by the result. Each is in [0, 1];
 * score i is named by name i of fw_session_blendshape_names() (or
 * fw_subscription_blendshape_names()), as MediaPipe's Category with index i. */
FW_API const float *fw_face_blendshapes(const fw_face *face, size_t *count);

/* With options.output_transformation_matrix, copies the 4x4 facial
 * transformation matrix, row-major, into out and returns true. */
FW_API bool fw_face_transformation_matrix(const fw_face *face, float out[16]);

/* The following return false, leaving *out alone, when the value is absent.
 *
 * Head rotation in degrees with ML Kit's signs: X (pitch) is positive when
 * the face turns up, Y (yaw) when it turns toward the image's right, Z
 * (roll) when it rotates counter-clockwise. X and Y need the face mesh and a
 * head pose fitted to it (not for very small faces); Z comes with them, or
 * from the eye keypoints when only the detector ran. Probabilities need
 * options.classification, the tracking ID needs options.tracking_enabled,
 * the presence score needs the face mesh. */
FW_API bool fw_face_head_euler_angle_x(const fw_face *face, float *out);
FW_API bool fw_face_head_euler_angle_y(const fw_face *face, float *out);
FW_API bool fw_face_head_euler_angle_z(const fw_face *face, float *out);
FW_API bool fw_face_smiling_probability(const fw_face *face, float *out);
FW_API bool fw_face_left_eye_open_probability(const fw_face *face, float *out);
FW_API bool fw_face_right_eye_open_probability(const fw_face *face, float *out);
FW_API bool fw_face_tracking_id(const fw_face *face, int32_t *out);
FW_API bool fw_face_presence_score(const fw_face *face, float *out);

/* ------------------------------------------------------------------------
 * Worker statistics
 * ------------------------------------------------------------------------ */

typedef enum fw_stage {
    FW_STAGE_QUEUED = 0,
    FW_STAGE_DECODE = 1,
    FW_STAGE_DETECT = 2,
    FW_STAGE_LANDMARKS = 3,
    FW_STAGE_TOTAL = 4,
    FW_STAGE_COUNT = 5
} fw_stage;

typedef struct fw_stage_latency {
    uint64_t p50_us, p90_us, p99_us;
    uint64_t count; /* frames covered; 0 when the worker reported none */
} fw_stage_latency;

#define FW_STATS_MAX_MODELS 8

typedef struct fw_model_info {
    char name[64];   /* file name, such as "face_landmark.tflite" */
    char sha256[65]; /* 64 lowercase hex digits */
    uint64_t size_bytes;
} fw_model_info;

/* Worker-wide counters since the worker started. */
typedef struct fw_stats {
    size_t size; /* sizeof(fw_stats), or 0 for 2.0's */
    double uptime_seconds;
    uint32_t connections; /* open now */
    uint32_t sessions;    /* open now, over all connections */
    uint64_t frames_processed;
    uint64_t frames_dropped;
    uint64_t frames_failed;
    fw_stage_latency stages[FW_STAGE_COUNT]; /* indexed by fw_stage */
    uint64_t resident_memory_bytes;
    uint32_t inference_threads;
    size_t model_count; /* entries filled in models (at most FW_STATS_MAX_MODELS) */
    fw_model_info models[FW_STATS_MAX_MODELS];
    uint32_t subscriptions;  /* open now, over all connections */
    uint64_t events_missed;  /* events subscribers lost by not reading in time */
    uint32_t shared_buffers; /* registered now, over all connections */
    uint64_t mapped_bytes;   /* shared memory the worker has mapped now */
} fw_stats;

/* Sets `size` and zeroes the counters. */
FW_API void fw_stats_init(fw_stats *stats);

/* Fills the members of *out that out->size covers (0: 2.0's) with the
 * worker's counters; initialise it with fw_stats_init() first. */
FW_API int fw_get_stats(fw_client *client, fw_stats *out, fw_error *err);

#ifdef __cplusplus
}
#endif

#endif
