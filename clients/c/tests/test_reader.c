/*
 * Tests of the I/O-free reader and writer (src/wire.h): no socket, no
 * worker, only bytes.
 *
 *   test_reader [--answers FILE]
 *
 * Answers shaped as the worker sends them (a session opened, a result with
 * a face of every field and its 478-point mesh, a drop, a status, an echo,
 * a subscription's event) are cut at every byte, and the short ones at
 * every pair of bytes: whatever the reads a socket returns, the same
 * messages come out. FILE, when given, holds answers a real worker sent,
 * framed as on the wire, and is cut the same way. The last line printed is
 * "N passed, N failed".
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "wire.h"

static const char *answers_file;

/* A stream of framed messages and where each one starts and ends. */
struct stream {
    uint8_t *bytes;
    size_t len;
    size_t count;
    size_t ends[64];
};

static void append(struct stream *s, const WorkerMessage *m)
{
    size_t payload = protobuf_c_message_get_packed_size(&m->base);
    uint8_t *grown = realloc(s->bytes, s->len + 5 + payload);
    if (!grown)
        abort();
    s->bytes = grown;
    uint8_t *p = s->bytes + s->len;
    p[0] = 0;
    p[1] = (uint8_t)(payload >> 24);
    p[2] = (uint8_t)(payload >> 16);
    p[3] = (uint8_t)(payload >> 8);
    p[4] = (uint8_t)payload;
    protobuf_c_message_pack(&m->base, p + 5);
    s->len += 5 + payload;
    s->ends[s->count++] = s->len;
}

static void small_answers(struct stream *s)
{
    WorkerMessage m = FACEWORKER__V1__WORKER_MESSAGE__INIT;
    Faceworker__V1__PingResponse ping = FACEWORKER__V1__PING_RESPONSE__INIT;
    ping.payload.data = (uint8_t *)"hello";
    ping.payload.len = 5;
    m.call_id = 3;
    m.kind_case = FACEWORKER__V1__WORKER_MESSAGE__KIND_PING;
    m.ping = &ping;
    append(s, &m);

    Faceworker__V1__FrameDropped drop = FACEWORKER__V1__FRAME_DROPPED__INIT;
    drop.session_id = 7;
    drop.timestamp_ms = 33;
    drop.reason = FACEWORKER__V1__FRAME_DROPPED__REASON__REASON_REPLACED;
    m.call_id = 4;
    m.kind_case = FACEWORKER__V1__WORKER_MESSAGE__KIND_FRAME_DROPPED;
    m.frame_dropped = &drop;
    append(s, &m);

    Faceworker__V1__Status status = FACEWORKER__V1__STATUS__INIT;
    status.code = FACEWORKER__V1__STATUS__CODE__INVALID_ARGUMENT;
    status.message = "timestamp 33 does not increase on 66";
    m.call_id = 5;
    m.kind_case = FACEWORKER__V1__WORKER_MESSAGE__KIND_ERROR;
    m.error = &status;
    append(s, &m);

    /* An empty message: a header with length 0. */
    WorkerMessage empty = FACEWORKER__V1__WORKER_MESSAGE__INIT;
    append(s, &empty);
}

static void rich_answers(struct stream *s)
{
    WorkerMessage m = FACEWORKER__V1__WORKER_MESSAGE__INIT;
    Faceworker__V1__OpenSessionResponse opened = FACEWORKER__V1__OPEN_SESSION_RESPONSE__INIT;
    Faceworker__V1__SessionOptions options = FACEWORKER__V1__SESSION_OPTIONS__INIT;
    char *names[52];
    char name_bytes[52][24];
    for (int i = 0; i < 52; i++) {
        snprintf(name_bytes[i], sizeof name_bytes[i], "shape%02d", i);
        names[i] = name_bytes[i];
    }
    opened.session_id = 9;
    opened.options = &options;
    opened.n_blendshape_names = 52;
    opened.blendshape_names = names;
    m.call_id = 1;
    m.kind_case = FACEWORKER__V1__WORKER_MESSAGE__KIND_OPEN_SESSION;
    m.open_session = &opened;
    append(s, &m);

    Faceworker__V1__FrameResult result = FACEWORKER__V1__FRAME_RESULT__INIT;
    Faceworker__V1__Face face = FACEWORKER__V1__FACE__INIT;
    Faceworker__V1__Face *faces[1] = {&face};
    Faceworker__V1__BoundingBox box = FACEWORKER__V1__BOUNDING_BOX__INIT;
    Faceworker__V1__StageTimings timings = FACEWORKER__V1__STAGE_TIMINGS__INIT;
    static float mesh[478 * 3], blendshapes[52], matrix[16];
    for (int i = 0; i < 478 * 3; i++)
        mesh[i] = (float)i / 7.0f;
    for (int i = 0; i < 52; i++)
        blendshapes[i] = (float)i / 52.0f;
    for (int i = 0; i < 16; i++)
        matrix[i] = (float)i;
    box.x = 180;
    box.y = 80;
    box.width = 95;
    box.height = 95;
    face.bounding_box = &box;
    face.score = 0.93f;
    face.n_mesh_xyz = 478 * 3;
    face.mesh_xyz = mesh;
    face.n_blendshapes = 52;
    face.blendshapes = blendshapes;
    face.n_transformation_matrix = 16;
    face.transformation_matrix = matrix;
    face.optional_tracking_id_case = FACEWORKER__V1__FACE__OPTIONAL_TRACKING_ID_TRACKING_ID;
    face.tracking_id = 1;
    timings.total_us = 4200;
    timings.detect_us = 800;
    result.session_id = 9;
    result.timestamp_ms = 66;
    result.image_width = 640;
    result.image_height = 360;
    result.n_faces = 1;
    result.faces = faces;
    result.timings = &timings;
    m.call_id = 2;
    m.kind_case = FACEWORKER__V1__WORKER_MESSAGE__KIND_FRAME_RESULT;
    m.frame_result = &result;
    append(s, &m);

    Faceworker__V1__SessionEvent event = FACEWORKER__V1__SESSION_EVENT__INIT;
    Faceworker__V1__EventsMissed missed = FACEWORKER__V1__EVENTS_MISSED__INIT;
    missed.count = 12;
    event.event_case = FACEWORKER__V1__SESSION_EVENT__EVENT_EVENTS_MISSED;
    event.events_missed = &missed;
    m.call_id = 6;
    m.kind_case = FACEWORKER__V1__WORKER_MESSAGE__KIND_SESSION_EVENT;
    m.session_event = &event;
    append(s, &m);
}

/* Whether got is, byte for byte, message i of the stream. */
static bool same_message(const struct stream *s, size_t i, const WorkerMessage *got)
{
    size_t start = i == 0 ? 0 : s->ends[i - 1];
    size_t payload = s->ends[i] - start - 5;
    if (protobuf_c_message_get_packed_size(&got->base) != payload)
        return false;
    uint8_t *packed = malloc(payload ? payload : 1);
    protobuf_c_message_pack(&got->base, packed);
    bool same = memcmp(packed, s->bytes + start + 5, payload) == 0;
    free(packed);
    return same;
}

/* Takes every whole message the reader holds, checking each against the
 * stream; false on a reader error or a message that differs. */
static bool drain(fwi_reader *r, const struct stream *s, size_t *taken)
{
    for (;;) {
        WorkerMessage *m;
        fw_error err;
        if (fwi_reader_next(r, &m, &err) != FW_OK) {
            fprintf(stderr, "    reader error: %s\n", err.message);
            return false;
        }
        if (!m)
            return true;
        bool same = *taken < s->count && same_message(s, *taken, m);
        faceworker__v1__worker_message__free_unpacked(m, NULL);
        if (!same) {
            fprintf(stderr, "    message %zu differs\n", *taken);
            return false;
        }
        (*taken)++;
    }
}

/* Feeds the stream in pieces cut at the given offsets (ascending). */
static bool read_in_pieces(const struct stream *s, const size_t *cuts, size_t n_cuts)
{
    fwi_reader r;
    fwi_reader_init(&r, FW_MAX_ANSWER_BYTES);
    size_t taken = 0, from = 0;
    bool ok = true;
    for (size_t i = 0; ok && i <= n_cuts; i++) {
        size_t to = i < n_cuts ? cuts[i] : s->len;
        ok = fwi_reader_feed(&r, s->bytes + from, to - from, NULL) == FW_OK && drain(&r, s, &taken);
        from = to;
    }
    size_t expected;
    ok = ok && taken == s->count && fwi_reader_unparsed(&r, &expected) == 0;
    fwi_reader_free(&r);
    return ok;
}

static void check_every_cut(const struct stream *s)
{
    size_t failures = 0;
    for (size_t i = 0; i <= s->len; i++)
        if (!read_in_pieces(s, &i, 1) && failures++ == 0)
            CHECK(false, "the stream of %zu bytes cut at %zu", s->len, i);
    CHECK(failures == 0, "%zu of %zu single cuts failed", failures, s->len + 1);
}

static void free_stream(struct stream *s)
{
    free(s->bytes);
}

static void test_every_cut_of_rich_answers(void)
{
    struct stream s = {0};
    rich_answers(&s);
    small_answers(&s);
    REQUIRE(s.len > 478 * 3 * 4, "a stream with the mesh: %zu bytes", s.len);
    check_every_cut(&s);
    free_stream(&s);
}

static void test_every_pair_of_cuts_of_small_answers(void)
{
    struct stream s = {0};
    small_answers(&s);
    size_t failures = 0;
    for (size_t i = 0; i <= s.len; i++)
        for (size_t j = i; j <= s.len; j++) {
            size_t cuts[2] = {i, j};
            if (!read_in_pieces(&s, cuts, 2) && failures++ == 0)
                CHECK(false, "cut at %zu and %zu", i, j);
        }
    CHECK(failures == 0, "%zu pairs of cuts failed", failures);
    free_stream(&s);
}

static void test_one_byte_at_a_time(void)
{
    struct stream s = {0};
    rich_answers(&s);
    small_answers(&s);
    fwi_reader r;
    fwi_reader_init(&r, FW_MAX_ANSWER_BYTES);
    size_t taken = 0;
    bool ok = true;
    for (size_t i = 0; ok && i < s.len; i++) {
        size_t before = taken;
        ok = fwi_reader_feed(&r, s.bytes + i, 1, NULL) == FW_OK && drain(&r, &s, &taken);
        /* A message comes out exactly when its last byte goes in. */
        bool at_end = false;
        for (size_t k = 0; k < s.count; k++)
            at_end |= s.ends[k] == i + 1;
        CHECK(taken - before == (at_end ? 1u : 0u), "after byte %zu: %zu messages", i, taken - before);
    }
    CHECK(ok && taken == s.count, "%zu of %zu messages", taken, s.count);
    fwi_reader_free(&r);
    free_stream(&s);
}

/* The path a socket takes: reading straight into the reader's room. */
static void test_reads_into_the_readers_room(void)
{
    struct stream s = {0};
    rich_answers(&s);
    fwi_reader r;
    fwi_reader_init(&r, FW_MAX_ANSWER_BYTES);
    size_t taken = 0, from = 0;
    bool ok = true;
    while (ok && from < s.len) {
        size_t room;
        uint8_t *space = fwi_reader_space(&r, 1, &room);
        REQUIRE(space && room >= 1, "room");
        size_t n = s.len - from < 777 ? s.len - from : 777; /* an odd read size */
        n = n < room ? n : room;
        memcpy(space, s.bytes + from, n);
        fwi_reader_commit(&r, n);
        from += n;
        ok = drain(&r, &s, &taken);
    }
    CHECK(ok && taken == s.count, "%zu of %zu messages", taken, s.count);
    fwi_reader_free(&r);
    free_stream(&s);
}

/* A bad message: the error and its reason, then the reader, cleared as for
 * a new connection, reads good messages again. */
static void check_refused(const uint8_t *bad, size_t len, const char *reason)
{
    fwi_reader r;
    fwi_reader_init(&r, FW_MAX_ANSWER_BYTES);
    REQUIRE(fwi_reader_feed(&r, bad, len, NULL) == FW_OK, "feed");
    WorkerMessage *m = NULL;
    fw_error err = {0};
    CHECK(fwi_reader_next(&r, &m, &err) == FW_ERR_PROTOCOL && m == NULL, "refused");
    CHECK(err.code == FW_ERR_PROTOCOL && strstr(err.message, reason), "reason: %s", err.message);
    CHECK(r.cap <= len + 65536, "nothing allocated for it: %zu bytes held", r.cap);
    CHECK(fwi_reader_next(&r, &m, &err) == FW_ERR_PROTOCOL, "the stream stays refused");

    fwi_reader_clear(&r);
    struct stream s = {0};
    small_answers(&s);
    size_t taken = 0;
    CHECK(fwi_reader_feed(&r, s.bytes, s.len, NULL) == FW_OK && drain(&r, &s, &taken) && taken == s.count,
          "a new stream reads: %zu of %zu", taken, s.count);
    free_stream(&s);
    fwi_reader_free(&r);
}

static void test_length_over_the_limit(void)
{
    const uint8_t header[] = {0, 0x04, 0, 0, 1}; /* 64 MiB + 1 */
    check_refused(header, sizeof header, "a message of 67108865 bytes, over this client's limit of 67108864");
}

static void test_bad_flag_byte(void)
{
    const uint8_t compressed[] = {1, 0, 0, 0, 2, 0x08, 0x01};
    check_refused(compressed, sizeof compressed, "flag byte 0x01");
}

static void test_payload_that_does_not_parse(void)
{
    const uint8_t garbage[] = {0, 0, 0, 0, 3, 0xff, 0xff, 0xff};
    check_refused(garbage, sizeof garbage, "a message of 3 bytes that is not a WorkerMessage");
}

static void test_limit_is_inclusive(void)
{
    struct stream s = {0};
    small_answers(&s);
    uint32_t first = (uint32_t)s.ends[0] - 5;
    fwi_reader at, over;
    fwi_reader_init(&at, first);
    fwi_reader_init(&over, first - 1);
    WorkerMessage *m = NULL;
    fw_error err;
    CHECK(fwi_reader_feed(&at, s.bytes, s.ends[0], NULL) == FW_OK && fwi_reader_next(&at, &m, &err) == FW_OK && m,
          "a message of exactly the limit is taken");
    if (m)
        faceworker__v1__worker_message__free_unpacked(m, NULL);
    CHECK(fwi_reader_feed(&over, s.bytes, 5, NULL) == FW_OK && fwi_reader_next(&over, &m, &err) == FW_ERR_PROTOCOL,
          "one byte more is refused from its header alone");
    fwi_reader_free(&at);
    fwi_reader_free(&over);
    free_stream(&s);
}

static void test_unparsed_tells_a_cut(void)
{
    struct stream s = {0};
    rich_answers(&s);
    fwi_reader r;
    fwi_reader_init(&r, FW_MAX_ANSWER_BYTES);
    size_t expected;
    fwi_reader_feed(&r, s.bytes, 3, NULL);
    CHECK(fwi_reader_unparsed(&r, &expected) == 3 && expected == 5, "inside the header: 3 of %zu", expected);
    fwi_reader_feed(&r, s.bytes + 3, 7, NULL);
    CHECK(fwi_reader_unparsed(&r, &expected) == 10 && expected == s.ends[0], "inside the payload: 10 of %zu",
          expected);
    fwi_reader_free(&r);
    free_stream(&s);
}

static void test_writer_frames_into_the_callers_buffer(void)
{
    Faceworker__V1__ClientMessage m = FACEWORKER__V1__CLIENT_MESSAGE__INIT;
    Faceworker__V1__PingRequest ping = FACEWORKER__V1__PING_REQUEST__INIT;
    ping.payload.data = (uint8_t *)"abc";
    ping.payload.len = 3;
    m.call_id = 42;
    m.kind_case = FACEWORKER__V1__CLIENT_MESSAGE__KIND_PING;
    m.ping = &ping;
    size_t need = fwi_message_size(&m);
    REQUIRE(need > 5, "size %zu", need);
    uint8_t buf[64];
    memset(buf, 0xee, sizeof buf);
    CHECK(fwi_write_message(&m, buf, need - 1) == need && buf[0] == 0xee, "too small: the size, nothing written");
    REQUIRE(fwi_write_message(&m, buf, sizeof buf) == need, "written");
    CHECK(buf[0] == 0 && fwi_payload_length(buf) == need - 5, "header: flag 0, length %u", fwi_payload_length(buf));
    CHECK(buf[need] == 0xee, "nothing past the message");
    Faceworker__V1__ClientMessage *back = faceworker__v1__client_message__unpack(NULL, need - 5, buf + 5);
    REQUIRE(back, "the payload parses");
    CHECK(back->call_id == 42 && back->kind_case == FACEWORKER__V1__CLIENT_MESSAGE__KIND_PING &&
              back->ping->payload.len == 3 && memcmp(back->ping->payload.data, "abc", 3) == 0,
          "the same message back");
    faceworker__v1__client_message__free_unpacked(back, NULL);
}

static void test_writer_queues_what_the_socket_did_not_take(void)
{
    Faceworker__V1__ClientMessage m = FACEWORKER__V1__CLIENT_MESSAGE__INIT;
    Faceworker__V1__PingRequest ping = FACEWORKER__V1__PING_REQUEST__INIT;
    m.kind_case = FACEWORKER__V1__CLIENT_MESSAGE__KIND_PING;
    m.ping = &ping;
    fwi_writer w = {0};
    m.call_id = 1;
    size_t one = fwi_message_size(&m); /* every call id below takes one byte */
    for (int i = 1; i <= 3; i++) {
        m.call_id = (uint64_t)i;
        REQUIRE(fwi_writer_append(&w, &m, NULL) == FW_OK, "append");
    }
    CHECK(fwi_writer_pending(&w) == 3 * one, "three messages queued");
    fwi_writer_consume(&w, one + 2); /* a short write */
    m.call_id = 4;
    REQUIRE(fwi_writer_append(&w, &m, NULL) == FW_OK, "append after a short write");
    REQUIRE(fwi_writer_pending(&w) == 3 * one - 2, "the rest of call 2, then 3 and 4: %zu bytes",
            fwi_writer_pending(&w));
    const uint8_t *p = w.buf + w.off + (one - 2);
    uint64_t ids[2];
    for (int i = 0; i < 2; i++, p += one) {
        Faceworker__V1__ClientMessage *back = faceworker__v1__client_message__unpack(NULL, one - 5, p + 5);
        REQUIRE(back, "message %d parses", i);
        ids[i] = back->call_id;
        faceworker__v1__client_message__free_unpacked(back, NULL);
    }
    CHECK(ids[0] == 3 && ids[1] == 4, "calls 3 and 4 follow in order: %llu, %llu", (unsigned long long)ids[0],
          (unsigned long long)ids[1]);
    fwi_writer_take_back(&w, 2 * one - 2);
    CHECK(fwi_writer_pending(&w) == 2 * one - 2, "call 4 taken back, the rest of 2 and 3 kept");
    fwi_writer_consume(&w, fwi_writer_pending(&w));
    CHECK(fwi_writer_pending(&w) == 0, "all written");
    fwi_writer_free(&w);
}

/* Answers a real worker sent, as framed on its socket. */
static bool load_answers(struct stream *s, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    uint8_t header[5];
    while (fread(header, 1, 5, f) == 5) {
        uint32_t len = fwi_payload_length(header);
        uint8_t *grown = realloc(s->bytes, s->len + 5 + len);
        if (!grown || s->count == sizeof s->ends / sizeof s->ends[0])
            abort();
        s->bytes = grown;
        memcpy(s->bytes + s->len, header, 5);
        if (fread(s->bytes + s->len + 5, 1, len, f) != len)
            break;
        s->len += 5 + len;
        s->ends[s->count++] = s->len;
    }
    fclose(f);
    return s->count > 0;
}

static void test_every_cut_of_a_real_workers_answers(void)
{
    struct stream s = {0};
    REQUIRE(load_answers(&s, answers_file), "answers in %s", answers_file);
    check_every_cut(&s);
    free_stream(&s);
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--answers") == 0)
        answers_file = argv[2];
    else if (argc != 1) {
        fprintf(stderr, "usage: test_reader [--answers FILE]\n");
        return 2;
    }
    RUN(test_every_cut_of_rich_answers);
    RUN(test_every_pair_of_cuts_of_small_answers);
    RUN(test_one_byte_at_a_time);
    RUN(test_reads_into_the_readers_room);
    RUN(test_length_over_the_limit);
    RUN(test_bad_flag_byte);
    RUN(test_payload_that_does_not_parse);
    RUN(test_limit_is_inclusive);
    RUN(test_unparsed_tells_a_cut);
    RUN(test_writer_frames_into_the_callers_buffer);
    RUN(test_writer_queues_what_the_socket_did_not_take);
    if (answers_file)
        RUN(test_every_cut_of_a_real_workers_answers);
    printf("%d passed, %d failed\n", tests_passed, tests_failed);
    return tests_failed ? 1 : 0;
}
