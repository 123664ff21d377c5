/*
 * Tests of shared-memory buffers and frames that name regions of them.
 *
 *   test_shared_memory --fixtures DIR [--socket PATH]
 *
 * The wire tests run the handoff against a scripted fake worker, which
 * checks what arrives: one descriptor, a memfd sealed against shrinking, of
 * the size asked for, with the frame's bytes in it. With --socket, frames
 * from a buffer get the same results from a real face-worker as the same
 * bytes inline, and bad buffers and regions are refused with the right
 * code and a message. The last line printed is "N passed, N failed".
 */
#define _GNU_SOURCE /* memfd_create, F_GET_SEALS */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "check.h"
#include "fake_worker.h"
#include "faceworker.h"
#include "support.h"

typedef Faceworker__V1__ClientMessage ClientMessage;
typedef Faceworker__V1__WorkerMessage WorkerMessage;

static const char *fixtures_dir;
static const char *worker_socket;

/* ------------------------------------------------------------------------
 * Wire tests
 * ------------------------------------------------------------------------ */

#define BUFFER_ID 5
#define BUFFER_BYTES 8192
static const uint8_t token[] = {0xde, 0xad, 0xbe, 0xef};

struct handoff_record {
    bool refuse;            /* answer the handoff with INVALID_ARGUMENT */
    char address[64];       /* "@..." */
    bool token_ok, one_fd, sealed;
    long long fd_size;
    bool region_ok, bytes_ok;
};

/* Listens on an abstract address of its own, as the worker's handoff does. */
static int listen_abstract(char *address, size_t size)
{
    snprintf(address, size, "@fw-fake-handoff-%d", (int)getpid());
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    size_t n = strlen(address);
    memcpy(addr.sun_path, address, n);
    addr.sun_path[0] = '\0';
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    if (fd >= 0 && (bind(fd, (struct sockaddr *)&addr, (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n)) != 0 ||
                    listen(fd, 1) != 0)) {
        close(fd);
        fd = -1;
    }
    return fd;
}

/* Takes the token and the descriptor from one handoff connection. */
static int receive_descriptor(int conn, struct handoff_record *r)
{
    uint8_t got[16];
    union {
        struct cmsghdr align;
        char bytes[CMSG_SPACE(2 * sizeof(int))];
    } control;
    struct iovec iov = {.iov_base = got, .iov_len = sizeof got};
    struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = control.bytes,
                         .msg_controllen = sizeof control.bytes};
    ssize_t n = recvmsg(conn, &msg, 0);
    r->token_ok = n == (ssize_t)sizeof token && memcmp(got, token, sizeof token) == 0;
    struct cmsghdr *cmsg = CMSG_FIRSTHDR(&msg);
    int fd = -1;
    if (cmsg && cmsg->cmsg_type == SCM_RIGHTS) {
        r->one_fd = cmsg->cmsg_len == CMSG_LEN(sizeof(int));
        memcpy(&fd, CMSG_DATA(cmsg), sizeof fd);
    }
    return fd;
}

static void script_handoff(int fd, void *arg)
{
    struct handoff_record *r = arg;
    int listener = listen_abstract(r->address, sizeof r->address);
    ClientMessage *m = fake_read(fd);
    if (!m || listener < 0)
        goto out;
    Faceworker__V1__RegisterBufferResponse reserved = FACEWORKER__V1__REGISTER_BUFFER_RESPONSE__INIT;
    reserved.buffer_id = BUFFER_ID;
    reserved.token.data = (uint8_t *)token;
    reserved.token.len = sizeof token;
    reserved.handoff_address = r->address;
    WorkerMessage w = FACEWORKER__V1__WORKER_MESSAGE__INIT;
    w.call_id = m->call_id;
    w.kind_case = FACEWORKER__V1__WORKER_MESSAGE__KIND_REGISTER_BUFFER;
    w.register_buffer = &reserved;
    fake_write(fd, &w);

    int conn = accept(listener, NULL, NULL);
    int memfd = conn >= 0 ? receive_descriptor(conn, r) : -1;
    uint8_t *mapped = NULL;
    struct stat st;
    if (memfd >= 0 && fstat(memfd, &st) == 0) {
        r->fd_size = (long long)st.st_size;
        r->sealed = (fcntl(memfd, F_GET_SEALS) & F_SEAL_SHRINK) != 0;
        mapped = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, memfd, 0);
    }
    WorkerMessage verdict = FACEWORKER__V1__WORKER_MESSAGE__INIT;
    Faceworker__V1__BufferRegistered registered = FACEWORKER__V1__BUFFER_REGISTERED__INIT;
    Faceworker__V1__Status refusal = FACEWORKER__V1__STATUS__INIT;
    if (r->refuse) {
        refusal.code = FACEWORKER__V1__STATUS__CODE__INVALID_ARGUMENT;
        refusal.message = "the descriptor is not sealed against shrinking";
        verdict.kind_case = FACEWORKER__V1__WORKER_MESSAGE__KIND_ERROR;
        verdict.error = &refusal;
    } else {
        registered.buffer_id = BUFFER_ID;
        registered.size_bytes = (uint64_t)r->fd_size;
        verdict.kind_case = FACEWORKER__V1__WORKER_MESSAGE__KIND_BUFFER_REGISTERED;
        verdict.buffer_registered = &registered;
    }
    if (conn >= 0) {
        fake_write(conn, &verdict);
        close(conn);
    }
    ClientMessage *next;
    while ((next = fake_read(fd)) != NULL) {
        if (next->kind_case == FACEWORKER__V1__CLIENT_MESSAGE__KIND_OPEN_SESSION) {
            fake_answer_open(fd, next, 1, next->open_session->options);
        } else if (next->kind_case == FACEWORKER__V1__CLIENT_MESSAGE__KIND_PROCESS_FRAME) {
            const Faceworker__V1__Frame *f = next->process_frame->frame;
            const Faceworker__V1__BufferRegion *region = f->raw ? f->raw->region : NULL;
            r->region_ok = f->image_case == FACEWORKER__V1__FRAME__IMAGE_RAW && region &&
                           region->buffer_id == BUFFER_ID && region->offset == 100 && region->length == 12 &&
                           f->raw->data.len == 0 && f->raw->width == 2 && f->raw->height == 2;
            r->bytes_ok = mapped && memcmp(mapped + 100, "pixels here!", 12) == 0;
            Faceworker__V1__FrameResult result = FACEWORKER__V1__FRAME_RESULT__INIT;
            result.timestamp_ms = f->timestamp_ms;
            WorkerMessage answer = FACEWORKER__V1__WORKER_MESSAGE__INIT;
            answer.call_id = next->call_id;
            answer.kind_case = FACEWORKER__V1__WORKER_MESSAGE__KIND_FRAME_RESULT;
            answer.frame_result = &result;
            fake_write(fd, &answer);
        }
        faceworker__v1__client_message__free_unpacked(next, NULL);
    }
    if (mapped)
        munmap(mapped, (size_t)r->fd_size);
    if (memfd >= 0)
        close(memfd);
out:
    if (m)
        faceworker__v1__client_message__free_unpacked(m, NULL);
    if (listener >= 0)
        close(listener);
}

static void test_wire_handoff_sends_a_sealed_memfd(void)
{
    struct handoff_record rec = {0};
    fake_worker *w;
    fw_client *c = fake_connect(script_handoff, &rec, &w);
    REQUIRE(c, "fake worker");
    fw_error err;
    fw_buffer *b = fw_register_buffer(c, BUFFER_BYTES, &err);
    if (CHECK_AT(b != NULL, "%s %s", fw_status_name(err.code), err.message)) {
        CHECK(fw_buffer_id(b) == BUFFER_ID && fw_buffer_size(b) == BUFFER_BYTES, "id and size");
        memcpy((uint8_t *)fw_buffer_data(b) + 100, "pixels here!", 12);
        fw_session *s = fw_open_session(c, NULL, &err);
        fw_frame f = {.format = FW_PIXEL_RGB, .width = 2, .height = 2, .timestamp_ms = 3,
                      .pixels_region = {.buffer = b, .offset = 100, .length = 12}};
        fw_result *r;
        if (CHECK_AT(s != NULL, "%s", err.message) && CHECK_AT(fw_process(s, &f, &r, &err) == FW_OK, "%s", err.message))
            fw_result_free(r);
        f.jpeg = (const uint8_t *)"x";
        CHECK(fw_process(s, &f, &r, &err) == FW_ERR_USAGE && contains(err.message, "exactly one"),
              "a frame with two sources: %s", err.message);
        CHECK(fw_unregister_buffer(NULL, &err) == FW_OK, "NULL is ignored");
    }
    fake_disconnect(c, w);
    CHECK(rec.token_ok, "the token, alone, in one sendmsg");
    CHECK(rec.one_fd, "exactly one descriptor");
    CHECK(rec.sealed && rec.fd_size == BUFFER_BYTES, "sealed against shrinking, %lld bytes", rec.fd_size);
    CHECK(rec.region_ok, "the frame names the region, with no bytes inline");
    CHECK(rec.bytes_ok, "the worker's mapping holds what the client wrote");
}

static void test_wire_handoff_refusal_is_the_workers(void)
{
    struct handoff_record rec = {.refuse = true};
    fake_worker *w;
    fw_client *c = fake_connect(script_handoff, &rec, &w);
    REQUIRE(c, "fake worker");
    fw_error err;
    fw_buffer *b = fw_register_buffer(c, BUFFER_BYTES, &err);
    CHECK(b == NULL && err.code == FW_INVALID_ARGUMENT && contains(err.message, "sealed"), "%s %s",
          fw_status_name(err.code), err.message);
    b = fw_register_buffer(c, 0, &err);
    CHECK(b == NULL && err.code == FW_ERR_USAGE, "an empty buffer: %s", err.message);
    fake_disconnect(c, w);
}

/* ------------------------------------------------------------------------
 * Worker tests
 * ------------------------------------------------------------------------ */

/* The frame's first face box, or an error code. */
static int first_box(fw_session *s, const fw_frame *f, fw_box *box, fw_error *err)
{
    fw_result *r;
    int rc = fw_process(s, f, &r, err);
    if (rc != FW_OK)
        return rc;
    *box = fw_result_face_count(r) == 1 ? fw_face_box(fw_result_face(r, 0)) : (fw_box){0};
    fw_result_free(r);
    return FW_OK;
}

static bool same_box(fw_box a, fw_box b)
{
    return a.width > 0 && a.x == b.x && a.y == b.y && a.width == b.width && a.height == b.height;
}

static void test_worker_regions_give_the_inline_results(void)
{
    size_t len;
    uint8_t *jpeg = read_fixture(fixtures_dir, "astronaut.jpg", &len);
    REQUIRE(jpeg, "fixture");
    int w, h;
    uint8_t *rgb = decode_rgb(jpeg, len, &w, &h);
    size_t rgb_len = (size_t)w * (size_t)h * 3;
    fw_client *c = rgb ? connect_worker(worker_socket) : NULL;
    fw_error err;
    fw_session *s = c ? fw_open_session(c, NULL, &err) : NULL;
    /* Frames at offsets that are not multiples of anything. */
    size_t jpeg_at = 13, rgb_at = jpeg_at + len + 7;
    fw_buffer *b = s ? fw_register_buffer(c, rgb_at + rgb_len, &err) : NULL;
    if (CHECK_AT(b != NULL, "session and buffer: %s %s", fw_status_name(err.code), err.message)) {
        CHECK(fw_buffer_size(b) == rgb_at + rgb_len, "size %zu", fw_buffer_size(b));
        uint8_t *data = fw_buffer_data(b);
        memcpy(data + jpeg_at, jpeg, len);
        memcpy(data + rgb_at, rgb, rgb_len);
        fw_box inline_jpeg, shared_jpeg, inline_rgb, shared_rgb;
        fw_frame f = {.jpeg = jpeg, .jpeg_len = len};
        CHECK(first_box(s, &f, &inline_jpeg, &err) == FW_OK, "inline JPEG: %s", err.message);
        f = (fw_frame){.jpeg_region = {b, jpeg_at, len}};
        CHECK(first_box(s, &f, &shared_jpeg, &err) == FW_OK, "shared JPEG: %s", err.message);
        CHECK(same_box(inline_jpeg, shared_jpeg), "the same face from a JPEG region");
        f = (fw_frame){.pixels = rgb, .pixels_len = rgb_len, .format = FW_PIXEL_RGB, .width = (uint32_t)w,
                       .height = (uint32_t)h};
        CHECK(first_box(s, &f, &inline_rgb, &err) == FW_OK, "inline RGB: %s", err.message);
        f.pixels = NULL;
        f.pixels_len = 0;
        f.pixels_region = (fw_region){b, rgb_at, rgb_len};
        CHECK(first_box(s, &f, &shared_rgb, &err) == FW_OK, "shared RGB: %s", err.message);
        CHECK(same_box(inline_rgb, shared_rgb), "the same face from a pixel region");
        fw_stats st;
        fw_stats_init(&st);
        CHECK(fw_get_stats(c, &st, &err) == FW_OK && st.shared_buffers >= 1 && st.mapped_bytes >= rgb_at + rgb_len,
              "the buffer is counted: %u buffers, %llu bytes", st.shared_buffers,
              (unsigned long long)st.mapped_bytes);
        CHECK(fw_unregister_buffer(b, &err) == FW_OK, "%s", err.message);
        fw_stats after;
        fw_stats_init(&after);
        CHECK(fw_get_stats(c, &after, &err) == FW_OK && after.shared_buffers == st.shared_buffers - 1,
              "and no longer once unregistered: %u", after.shared_buffers);
    }
    fw_close(c);
    free(rgb);
    free(jpeg);
}

/* Registering fd must fail with `code` and a message holding `words`. */
static void check_refused_fd(fw_client *c, int fd, const char *what, const char *words)
{
    fw_error err;
    fw_buffer *b = fw_register_fd(c, fd, &err);
    CHECK(b == NULL && err.code == FW_INVALID_ARGUMENT && contains(err.message, words), "%s: %s %s", what,
          fw_status_name(err.code), err.message);
    fw_unregister_buffer(b, NULL);
}

static void test_worker_bad_descriptors_are_refused(void)
{
    fw_client *c = connect_worker(worker_socket);
    REQUIRE(c, "connect");
    int unsealed = memfd_create("unsealed", MFD_CLOEXEC);
    int pipe_fds[2] = {-1, -1};
    int dir = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    int sealed_empty = memfd_create("empty", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (CHECK_AT(unsealed >= 0 && pipe(pipe_fds) == 0 && dir >= 0 && sealed_empty >= 0, "descriptors")) {
        CHECK(ftruncate(unsealed, 4096) == 0, "sizing");
        check_refused_fd(c, unsealed, "an unsealed memfd", "seal");
        check_refused_fd(c, pipe_fds[0], "a pipe", "memfd");
        check_refused_fd(c, dir, "a directory", "memfd");
        CHECK(fcntl(sealed_empty, F_ADD_SEALS, F_SEAL_SHRINK) == 0, "sealing");
        check_refused_fd(c, sealed_empty, "an empty memfd", "empty");
        fw_error err;
        CHECK(fw_ping(c, NULL, 0, &err) == FW_OK, "the connection goes on: %s", err.message);
    }
    int fds[] = {unsealed, pipe_fds[0], pipe_fds[1], dir, sealed_empty};
    for (size_t i = 0; i < sizeof fds / sizeof fds[0]; i++)
        if (fds[i] >= 0)
            close(fds[i]);
    fw_close(c);
}

static void test_worker_bad_regions_are_refused(void)
{
    fw_client *c = connect_worker(worker_socket);
    fw_client *other = connect_worker(worker_socket);
    fw_error err;
    fw_session *s = c ? fw_open_session(c, NULL, &err) : NULL;
    fw_buffer *b = s ? fw_register_buffer(c, 4 * 4 * 3, &err) : NULL;
    fw_buffer *theirs = other ? fw_register_buffer(other, 64, &err) : NULL;
    if (CHECK_AT(b && theirs, "session and buffers: %s", err.message)) {
        fw_frame f = {.format = FW_PIXEL_RGB, .width = 4, .height = 4, .pixels_region = {b, 0, 48}};
        fw_result *r;
        CHECK(fw_process(s, &f, &r, &err) == FW_OK, "a region that fits: %s", err.message);
        fw_result_free(r);
        static const struct {
            size_t offset, length;
            int code;
            const char *what;
        } bad[] = {
            {1, 48, FW_OUT_OF_RANGE, "one byte past the end"},
            {SIZE_MAX - 10, 48, FW_OUT_OF_RANGE, "an offset that overflows"},
            {0, 0, FW_INVALID_ARGUMENT, "an empty region"},
            {0, 47, FW_INVALID_ARGUMENT, "a byte short of the layout"},
        };
        for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
            f.pixels_region = (fw_region){b, bad[i].offset, bad[i].length};
            int rc = fw_process(s, &f, &r, &err);
            CHECK(rc == bad[i].code && err.message[0], "%s: %s %s", bad[i].what, fw_status_name(rc), err.message);
        }
        f.pixels_region = (fw_region){theirs, 0, 48};
        int rc = fw_process(s, &f, &r, &err);
        CHECK(rc == FW_ERR_USAGE && contains(err.message, "another client"), "another client's buffer: %s",
              err.message);
        f.pixels_region = (fw_region){b, 0, 48};
        CHECK(fw_process(s, &f, &r, &err) == FW_OK, "the session goes on: %s", err.message);
        fw_result_free(r);
    }
    fw_close(other);
    fw_close(c);
}

int main(int argc, char **argv)
{
    if (!parse_test_arguments(argc, argv, &fixtures_dir, &worker_socket))
        return 2;

    RUN(test_wire_handoff_sends_a_sealed_memfd);
    RUN(test_wire_handoff_refusal_is_the_workers);

    if (worker_socket) {
        RUN(test_worker_regions_give_the_inline_results);
        RUN(test_worker_bad_descriptors_are_refused);
        RUN(test_worker_bad_regions_are_refused);
    }

    printf("%d passed, %d failed\n", tests_passed, tests_failed);
    return tests_failed == 0 ? 0 : 1;
}
