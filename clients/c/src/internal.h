/*
 * What the files of libfaceworker share, and nothing an application sees.
 * Shared functions are named fwi_ so that the static library's symbols do
 * not clash with an application's own.
 *
 * The library is split by job, one file each:
 *
 *   errors.c    status names, filling fw_error, breaking a connection
 *   net.c       the socket: default path, connect(2), waiting with deadlines
 *   wire.c      the I/O-free reader and writer of length-prefixed messages
 *   framing.c   moving those messages between the socket and the reader
 *               and writer, with deadlines
 *   calls.c     call ids, blocking calls, routing answers to their callers
 *   client.c    fw_connect(), fw_close() and the client's settings
 *   worker.c    the calls that need no session: ping and statistics
 *   options.c   session options: defaults, to and from the wire
 *   session.c   opening, resetting and closing sessions
 *   frames.c    sending frames and taking their answers
 *   result.c    the result and face accessors
 *   subscriptions.c  following named sessions: their events, in order
 *   buffers.c   shared-memory buffers: the memfd, registering, forgetting
 *   handoff.c   passing a buffer's descriptor to the worker (SCM_RIGHTS)
 *   reconnect.c connecting again after a worker restart, with everything,
 *               when asked or before a call finds the connection gone
 *   async.c     the non-blocking calls and the asynchronous front: progress
 *               on a ready descriptor, callbacks, sessions opened on the
 *               loop, reconnecting without waiting
 */
#ifndef FW_INTERNAL_H
#define FW_INTERNAL_H

#define _POSIX_C_SOURCE 200809L

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "faceworker.h"
#include "wire.h"

/* What a call in flight is for, which says where its answer goes. */
enum call_kind {
    CALL_FRAME,       /* a frame's answer, queued on `session` (or a call whose
                         answer is dropped, with no session) */
    CALL_OPEN,        /* fw_open_session_async(): the answer makes `open`'s session */
    CALL_REOPEN,      /* the asynchronous reconnect opens `session` again */
    CALL_REREGISTER,  /* ...registers `buffer` again */
    CALL_RESUBSCRIBE  /* ...subscribes `sub` again */
};

/* An fw_open_session_async() from the request until its callback has run:
 * in flight on its call, then waiting on the client's list of finished
 * opens for the next dispatch. */
struct pending_open {
    struct pending_open *next;
    fw_open_callback callback;
    void *data;
    fw_session *session; /* allocated with the request, linked once opened;
                            NULL once the open failed (`status`) */
    fw_error status;
};

/* A call whose answer has not been handed to the user yet: in flight on the
 * client's list, then, once answered, queued on its session. */
struct call {
    struct call *next;
    uint64_t call_id;
    int kind;                /* enum call_kind */
    fw_session *session;     /* NULL once abandoned: its answer is discarded */
    fw_buffer *buffer;       /* CALL_REREGISTER; NULL once freed */
    fw_subscription *sub;    /* CALL_RESUBSCRIBE; NULL once freed */
    struct pending_open *open; /* CALL_OPEN */
    int64_t timestamp_ms;
    WorkerMessage *answer;
};

struct fw_session {
    fw_client *client;
    fw_session *next;
    uint64_t id;
    char name[FW_SESSION_NAME_MAX + 1];
    fw_session_options options;
    /* The worker's OpenSessionResponse answer, kept for the blendshape names
     * it holds, so they cost no copy (and no failure after the worker opened
     * the session). */
    WorkerMessage *opened;
    size_t pending;
    /* fw_reconnect() opened it again: the first result of a call from
     * restarted_from on says so. */
    bool restarted;
    uint64_t restarted_from;
    /* ...and fw_poll() says so once, as FW_EVENT_RESTARTED, after the
     * notice_after events queued before the reconnect. A flag rather than
     * a queued event: a session that is never polled holds one notice
     * however many outages it lives through. */
    bool notice_due;
    size_t notice_after;
    struct call *events_head;
    struct call *events_tail;
};

/* One event of a subscription, waiting for fw_receive(). */
struct sub_event {
    struct sub_event *next;
    WorkerMessage *message; /* a session_event; NULL for events this client lost */
    uint64_t lost;          /* with no message: how many */
    bool restarted;         /* with no message: FW_SUB_RESTARTED instead */
};

struct fw_subscription {
    fw_client *client;
    fw_subscription *next;
    uint64_t call_id; /* the Subscribe call's, which every event carries */
    uint64_t id;
    uint64_t session_id;
    char name[FW_SESSION_NAME_MAX + 1];
    fw_session_options options;
    WorkerMessage *subscribed; /* the SubscribeResponse answer, for its blendshape
                                  names; NULL for an adopted subscription */
    uint32_t queue_limit;
    size_t queued;        /* events waiting, lost-event notes excluded */
    bool ended;           /* its SessionEnded arrived */
    bool stopped;         /* ...with WORKER_STOPPING: fw_reconnect() follows it again */
    /* While fw_reconnect() runs: its FW_SUB_RESTARTED, queued before the
     * attempts, so that whatever the new connection brings comes after it;
     * a failed attempt's events are dropped back to it, and giving up
     * takes it back. NULL otherwise. */
    struct sub_event *restart_note;
    bool abandoned;       /* fw_subscribe gave up: it is unsubscribed and its
                             events are discarded until it ends */
    struct sub_event *head, *tail;
};

struct fw_buffer {
    fw_client *client;
    fw_buffer *next;
    uint64_t id;
    int fd;     /* the memfd, or this library's duplicate of the caller's */
    void *data; /* NULL when not mapped */
    size_t size;
};

enum connect_state { CONNECTED, CONNECT_AGAIN, CONNECT_IN_PROGRESS };

/* Where an asynchronous reconnect stands while reconnect_pending. */
enum reconnect_phase {
    RECONNECT_WAITING,    /* no socket; the loop's timer starts the next attempt */
    RECONNECT_CONNECTING, /* connect(2) not finished: the loop waits to write */
    RECONNECT_RESTORING   /* sessions, buffers, subscriptions asked for again:
                             the loop waits for the answers */
};

struct fw_client {
    int fd;
    char path[sizeof(((struct sockaddr_un *)0)->sun_path)]; /* for fw_reconnect() */
    int timeout_ms;
    int busy_poll_us;
    bool restart_drops; /* fw_set_restart_drops() */
    bool auto_reconnect; /* fw_set_auto_reconnect() */
    fw_reconnect_options auto_options;
    bool reconnecting; /* inside fw_reconnect(), whose own calls must neither
                          reconnect nor report a cut as FW_UNAVAILABLE */
    bool gave_up;      /* the last reconnect failed: calls repeat why at once
                          until fw_reconnect() succeeds */
    bool stopping;     /* the worker said it is shutting down (an UNAVAILABLE
                          refusal, a WORKER_STOPPING end): it closes the
                          connection once it has answered what it read */
    uint64_t next_call_id;
    fw_session *sessions;
    fw_subscription *subscriptions;
    fw_buffer *buffers;
    struct call *in_flight;
    fwi_reader reader;
    fwi_writer writer;
    fw_error broken;   /* code != FW_OK once the connection is unusable */
    fw_error farewell; /* the last status the worker sent under call_id 0 */
    /* fw_connect_nonblock(): connect(2) is to be tried again (the listen
     * queue was full) or to be finished (in progress). */
    int connecting; /* enum connect_state */
    bool async;                /* fw_async_start() */
    fw_async_handlers handlers;
    bool hooked;               /* fw_async_attach() */
    fw_loop_hooks hooks;
    int watched_fd;            /* what the loop was last asked to watch */
    unsigned watched_wants;
    /* Async mode, from a break under auto-reconnect (or fw_reconnect())
     * until everything is back or the reconnect gave up: attempts that
     * never wait, driven by the loop's readiness events and its timer. */
    bool reconnect_pending;
    int reconnect_phase; /* enum reconnect_phase */
    bool break_handled; /* the front is mending, or has told of, the break */
    fw_reconnect_options reconnect_options;
    int64_t reconnect_deadline_ms;
    int reconnect_delay_ms;
    int64_t attempt_deadline_ms; /* when the attempt under way is given up on */
    size_t restore_left;         /* its calls still to be answered */
    fw_error restore_failed;     /* why one of them failed, once one has */
    /* fw_open_session_async()s answered or failed, their callbacks due at
     * the next dispatch, oldest first. */
    struct pending_open *opens_done, *opens_done_tail;
    /* Bumped when a session or subscription is freed: a dispatch round
     * that called a handler starts over rather than follow a stale link. */
    uint64_t handles_freed;
};

/* The bytes of a caller's struct that its size covers: 0 stands for 2.0's
 * layout, whose last member is named here; a size over this version's is
 * this version's. Zero when the size is too small to be a version's. */
#define FWI_SIZE_2_0(type, last) (offsetof(type, last) + sizeof(((type *)0)->last))
#define FWI_COVERED(type, last, size)                                                                        \
    ((size) == 0 ? FWI_SIZE_2_0(type, last)                                                                  \
     : (size) < FWI_SIZE_2_0(type, last) ? 0                                                                 \
     : (size) > sizeof(type) ? sizeof(type)                                                                  \
                             : (size))
#define FWI_OPTIONS_COVERED(size) FWI_COVERED(fw_session_options, output_face_blendshapes, size)
#define FWI_FRAME_COVERED(size) FWI_COVERED(fw_frame, pixels_region, size)
#define FWI_STATS_COVERED(size) FWI_COVERED(fw_stats, mapped_bytes, size)
#define FWI_RECONNECT_COVERED(size) FWI_COVERED(fw_reconnect_options, deadline_ms, size)

/* Copies the options the caller's struct holds, defaults for the rest;
 * FW_ERR_USAGE for a size no version has. */
int fwi_take_options(const fw_session_options *in, fw_session_options *out, fw_error *err);
/* Writes options into the caller's struct, as far as its size covers. */
void fwi_give_options(const fw_session_options *options, fw_session_options *out);

/* reconnect.c: the reconnect options the caller's struct holds, defaults
 * for the rest; FW_ERR_USAGE for a size no version has (*out then holds
 * the defaults). */
int fwi_take_reconnect_options(const fw_reconnect_options *in, fw_reconnect_options *out, fw_error *err);

/* errors.c */
__attribute__((format(printf, 4, 5))) int fwi_set_error(fw_error *err, int code, int sys_errno, const char *fmt, ...);
void fwi_clear_error(fw_error *err);
/* Marks the connection unusable; every later call reports the same error. */
__attribute__((format(printf, 5, 6))) int fwi_break_connection(fw_client *c, fw_error *err, int code, int sys_errno,
                                                           const char *fmt, ...);
/* FW_OK, or the error that broke the connection. */
int fwi_check_usable(const fw_client *c, fw_error *err);
/* Fills *err from a Status the worker sent and returns its code. */
int fwi_status_error(fw_error *err, const Faceworker__V1__Status *status);
/* The WorkerMessage field a kind_case stands for, such as "open_session". */
const char *fwi_message_kind_name(int kind);
/* Breaks the connection over an answer of a kind no call of this sort gets,
 * and frees it. */
int fwi_unexpected_answer(fw_client *c, WorkerMessage *m, const char *due, fw_error *err);

/* net.c */
/* connect(2), finishing a connect interrupted by a signal; 0, or -1 with
 * errno set. */
int fwi_connect(int fd, const struct sockaddr_un *addr, socklen_t len);
/* A deadline is a CLOCK_MONOTONIC time in ns, or -1 for none. */
int64_t fwi_deadline_after(int timeout_ms);
/* Connects a new non-blocking socket to path (NULL: the default path);
 * the socket, or -1 with *err filled. With `pending`, connect(2) does not
 * wait: *pending says whether it is done (CONNECTED) or not. */
int fwi_open_socket(const char *path, int *pending, fw_error *err);
/* The address of path (NULL: the default path), or FW_ERR_USAGE for a path
 * that does not fit. */
int fwi_socket_address(const char *path, struct sockaddr_un *addr, fw_error *err);
/* Fills *err with FW_ERR_CONNECT for errno e at path. */
int fwi_connect_error(const char *path, int e, fw_error *err);
/* poll(2) on the client's socket, restarted after signals; returns the
 * revents, 0 on timeout, or -1 with errno set. */
int fwi_wait_socket(fw_client *c, short events, int64_t deadline);

/* framing.c */
/* Returns the next message from the worker, or FW_OK with *out NULL when
 * none arrived before the deadline. */
int fwi_receive_message(fw_client *c, int64_t deadline, WorkerMessage **out, fw_error *err);
/* Queues m on the writer and writes the queue out (fwi_write_queued). */
int fwi_send_message(fw_client *c, ClientMessage *m, int64_t deadline, fw_error *err);
/* Writes the writer's queue out, waiting up to the deadline. The first
 * `keep` bytes were queued before this call's request: when nothing at all
 * could be written, the request is taken back and the call fails with
 * FW_DEADLINE_EXCEEDED. */
int fwi_write_queued(fw_client *c, size_t keep, int64_t deadline, fw_error *err);
/* Reads what the socket holds now into the reader, without waiting. */
int fwi_fill_reader(fw_client *c, fw_error *err);
/* The reader's next whole message, or *out NULL; a reader error breaks the
 * connection with its reason. */
int fwi_next_message(fw_client *c, WorkerMessage **out, fw_error *err);
/* Writes what the writer holds, as far as the socket takes it now;
 * *written says how much went. */
int fwi_flush(fw_client *c, size_t *written, fw_error *err);

/* calls.c */
void fwi_free_call(struct call *call);
void fwi_free_calls(struct call *call);
/* Takes a message that answers no blocking call: remembers a connection
 * status, queues a frame's answer on its session, or drops the answer to an
 * abandoned call. */
int fwi_route(fw_client *c, WorkerMessage *m, fw_error *err);
/* Receives the next message and routes it (fwi_route); FW_OK with *idle set,
 * and err cleared, when none arrived before the deadline. */
int fwi_route_next(fw_client *c, int64_t deadline, bool *idle, fw_error *err);
/* Routes every message that has arrived, without waiting for more. */
int fwi_route_arrived(fw_client *c, fw_error *err);
/* Sends m as a new call and waits for its answer, routing every other
 * message meanwhile. A worker Status comes back as its code; on FW_OK,
 * *answer is the caller's to free. `expected` is the answer's kind, or
 * KIND__NOT_SET to accept any. Under auto-reconnect, a connection that
 * breaks once the request is written fails the call with FW_UNAVAILABLE,
 * and the next call connects again. */
int fwi_call_worker(fw_client *c, ClientMessage *m, int expected, WorkerMessage **answer, fw_error *err);
/* fwi_call_worker() for a call whose answer says nothing but that it is done. */
int fwi_call_worker_done(fw_client *c, ClientMessage *m, int expected, fw_error *err);
/* Assigns m a call id, queues it on the writer and puts `call` in flight
 * under that id; nothing is written yet. */
int fwi_queue_call(fw_client *c, ClientMessage *m, struct call *call, fw_error *err);
/* A handle (session, buffer or subscription) is being freed: calls in
 * flight forget it, and their answers are no one's. True when one of them
 * was asking the worker for it again (an asynchronous reconnect's), so that
 * the worker does not hold it under its current id yet. */
bool fwi_forget_handle(fw_client *c, const void *handle);
/* fwi_call_worker_done() for a call that ends what the worker holds for
 * this client (a session, subscription or buffer). Under auto-reconnect, a
 * connection that is gone or going takes it along: that is FW_OK, nothing
 * is sent, and the next reconnect does not bring it back. */
int fwi_call_to_end(fw_client *c, ClientMessage *m, int expected, fw_error *err);

/* options.c */
/* Every optional field is sent as present, so the worker applies exactly
 * what the caller holds, defaults included. */
void fwi_options_to_proto(const fw_session_options *o, Faceworker__V1__SessionOptions *p);
/* The worker's echo; a field it left unset keeps the documented default. */
void fwi_options_from_proto(const Faceworker__V1__SessionOptions *p, fw_session_options *o);

/* session.c */
void fwi_free_session(fw_session *s);

/* result.c */
/* Hands a frame's answer m to the caller as a result of s (NULL for a
 * subscription's), marked when it is s's first since fw_reconnect(). */
fw_result *fwi_hand_out_result(fw_session *s, WorkerMessage *m);

/* subscriptions.c */
/* Takes a message under a subscription's call_id, if m is one; *taken says
 * whether it was. */
int fwi_route_subscription(fw_client *c, WorkerMessage *m, bool *taken, fw_error *err);
void fwi_free_subscription(fw_subscription *sub);
/* A Subscribe call given up on was answered: the subscription is kept only
 * to discard its events, and ended. */
int fwi_adopt_subscription(fw_client *c, uint64_t call_id, uint64_t subscription_id, fw_error *err);

/* buffers.c */
void fwi_free_buffer(fw_buffer *b);
/* Registers b's descriptor again on a new connection; b->id changes. */
int fwi_register_again(fw_client *c, fw_buffer *b, fw_error *err);
/* The RegisterBuffer request of that, queued as a CALL_REREGISTER call
 * without waiting. */
int fwi_queue_register_again(fw_client *c, fw_buffer *b, fw_error *err);
/* Takes the worker's answer to it: hands b's descriptor over and takes
 * the new id. */
int fwi_registered_again(fw_client *c, fw_buffer *b, WorkerMessage *answer, fw_error *err);

/* subscriptions.c, for fw_reconnect() */
/* Subscribes sub again by its name on a new connection. */
int fwi_subscribe_again(fw_client *c, fw_subscription *sub, fw_error *err);
/* The same request, queued as a CALL_RESUBSCRIBE call without waiting. */
int fwi_queue_resubscribe(fw_client *c, fw_subscription *sub, fw_error *err);
/* Takes the worker's answer to the call `call_id` that subscribed sub again. */
void fwi_resubscribed(fw_subscription *sub, uint64_t call_id, WorkerMessage *answer);

/* Queues sub->restart_note, FW_SUB_RESTARTED, at the end of sub's events. */
int fwi_note_restart(fw_subscription *sub, fw_error *err);
/* Drops the events queued after sub->restart_note, and with `note` the
 * note too: what a connection given up on brought. */
void fwi_drop_since_restart(fw_subscription *sub, bool note);

/* session.c, for fw_reconnect() */
/* Opens s again with its options and name on a new connection. */
int fwi_open_again(fw_client *c, fw_session *s, fw_error *err);
/* The same request, queued as a CALL_REOPEN call without waiting. */
int fwi_queue_reopen(fw_client *c, fw_session *s, fw_error *err);
/* Takes the worker's answer to s's re-opening (owned by s from then on). */
void fwi_reopened(fw_client *c, fw_session *s, WorkerMessage *answer);
/* session.c, for the asynchronous front: the answer (or failure) of an
 * fw_open_session_async() call, which becomes the client's finished open.
 * A refusal or a failure takes `status`; call->answer is taken. */
int fwi_open_answered(fw_client *c, struct call *call, fw_error *err);
/* Queues a finished open for its callback, which the next dispatch runs. */
void fwi_open_finished(fw_client *c, struct pending_open *open);

/* reconnect.c, for every call */
/* Whether a call now would connect again first: auto-reconnect is on, no
 * reconnect has given up since, and the connection broke (closed, or a
 * read or write failed) or its worker is stopping. */
bool fwi_auto_recovers(const fw_client *c);
/* Before a call writes a request: FW_OK when the connection can take it.
 * Under auto-reconnect it first takes what the worker sent meanwhile, so
 * that a connection the worker closed is found before a request is lost in
 * it, and connects again when the connection is gone or going. Callers
 * build their request after it: ids change when it reconnects. */
int fwi_prepare(fw_client *c, fw_error *err);
/* For calls that only read (fw_poll, fw_receive): FW_OK when there is a
 * connection to read; under auto-reconnect, connects again when it broke.
 * A stopping worker's connection is read on, for the answers it still
 * owes. */
int fwi_recover(fw_client *c, fw_error *err);

/* async.c */
/* FW_ERR_USAGE, with a message, when the client is in async mode, where a
 * call that waits for the worker would stall the loop; FW_OK otherwise. */
int fwi_refuse_async(const fw_client *c, fw_error *err);
/* fw_reconnect() in async mode: starts mending the connection on the loop's
 * timer and returns; the handlers hear how it ends. */
int fwi_async_reconnect(fw_client *c, const fw_reconnect_options *options, fw_error *err);
/* fw_send() in async mode, and fw_send_nonblock(). */
int fwi_send_nonblock(fw_session *s, const fw_frame *frame, fw_error *err);
/* Sends m without waiting, as a call whose answer is dropped. */
int fwi_send_forget(fw_client *c, ClientMessage *m, fw_error *err);

/* frames.c, for the asynchronous front */
/* Builds the request for a frame and records it as in flight: the work of
 * fw_send() between checking the connection and writing. */
int fwi_queue_frame(fw_session *s, const fw_frame *frame, fw_error *err);
/* The session's next event without waiting: true with *ev filled (err
 * cleared, or the error of an answer of the wrong kind, which broke the
 * connection), false when none waits. */
bool fwi_session_event(fw_session *s, fw_event *ev, int *rc, fw_error *err);
/* Zeroes an event and sets its size: every member this version has. */
void fwi_clear_event(fw_event *ev);

/* subscriptions.c, for the asynchronous front */
/* Zeroes an event and sets its size: every member this version has. */
void fwi_clear_subscription_event(fw_subscription_event *ev);
/* Hands the oldest waiting event of sub to the caller; sub->head must be set. */
void fwi_pop_subscription_event(fw_subscription *sub, fw_subscription_event *out);

/* reconnect.c, for the asynchronous front */
/* What a reconnect does before its attempts: reads what the old connection
 * holds, turns frames in flight into drops, notes each subscription's
 * restart. */
int fwi_reconnect_begin(fw_client *c, fw_error *err);
/* Drops the connection and whatever was read from it. */
void fwi_disconnect(fw_client *c);
/* How long an attempt's calls may wait for answers: what fw_set_timeout()
 * and the deadline allow, but at least the first delay, so that the last
 * attempt, at the deadline, can still be answered. */
int fwi_attempt_wait_ms(const fw_client *c, const fw_reconnect_options *options, int64_t deadline_ms);
/* An attempt failed with rc: FW_OK never; the error to report, with
 * *retry set when another attempt may succeed before the deadline. */
int fwi_attempt_failed(fw_client *c, int rc, const fw_reconnect_options *options, int64_t deadline_ms, bool *retry,
                       fw_error *err);
/* Everything is back: each session and subscription is told once. */
void fwi_reconnect_done(fw_client *c);
/* Gives up: the connection stays broken with why, reported by every call. */
void fwi_reconnect_give_up(fw_client *c, fw_error *why);
int64_t fwi_now_ms(void);

/* async.c, for routing */
/* Takes the answer (call->answer) to a call of a kind other than
 * CALL_FRAME, and frees the call. */
int fwi_async_answer(fw_client *c, struct call *call, fw_error *err);
/* fw_close_session(), fw_unsubscribe() and fw_unregister_buffer() in async
 * mode: sends the request m that ends `handle` without waiting, when the
 * worker holds the handle under the id m names (*told says whether it
 * did; may be NULL). Calls in flight forget the handle. */
int fwi_async_end(fw_client *c, ClientMessage *m, const void *handle, bool *told, fw_error *err);
/* fw_close(): every open still to be told is told FW_ERR_CLOSED. */
void fwi_close_opens(fw_client *c);
/* Writes what the writer holds as far as the socket takes it; a break is
 * left to the loop's timer, which acts on it outside the caller. */
int fwi_async_flush(fw_client *c, fw_error *err);

/* handoff.c */
/* Hands fd to the worker for the reservation `token`, at `address` ("@" for
 * an abstract address), and reads the worker's verdict: FW_OK with *size
 * the buffer's size, or the worker's status. */
int fwi_hand_off(fw_client *c, const char *address, const ProtobufCBinaryData *token, int fd, uint64_t buffer_id,
                 uint64_t *size, fw_error *err);

#endif
