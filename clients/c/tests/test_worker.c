/*
 * Tests of libfaceworker against a real face-worker, on the repository's
 * fixture images: faces, ML Kit outputs, raw pixels, tracking, live
 * streams, blendshapes, errors the worker gives, statistics.
 *
 *   test_worker --fixtures DIR --socket PATH
 *
 * The last line printed is "N passed, N failed".
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
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
 * Helpers
 * ------------------------------------------------------------------------ */

static uint8_t *load_fixture(const char *name, size_t *len)
{
    return read_fixture(fixtures_dir, name, len);
}

static fw_point box_centre(fw_box b)
{
    return (fw_point){b.x + b.width / 2, b.y + b.height / 2};
}

static float distance(fw_point a, fw_point b)
{
    return hypotf(a.x - b.x, a.y - b.y);
}

/* A fixture image and a worker session to send it to, which a test sets up
 * and tears down together. */
struct fixture_session {
    uint8_t *jpeg;
    size_t len;
    fw_client *client;
    fw_session *session;
};

/* False, with nothing left to free, if the fixture cannot be read or the
 * session not opened; the step that failed says why on stderr. */
static bool open_fixture_session(struct fixture_session *fx, const char *fixture, fw_running_mode mode,
                                 bool tracking)
{
    fx->jpeg = load_fixture(fixture, &fx->len);
    fx->client = fx->jpeg ? connect_worker(worker_socket) : NULL;
    fx->session = fx->client ? open_session_in(fx->client, mode, tracking) : NULL;
    if (!fx->session) {
        fw_close(fx->client);
        free(fx->jpeg);
    }
    return fx->session != NULL;
}

static void close_fixture_session(struct fixture_session *fx)
{
    fw_close(fx->client);
    free(fx->jpeg);
}

/* ------------------------------------------------------------------------
 * Worker tests
 * ------------------------------------------------------------------------ */

static void test_worker_ping(void)
{
    fw_client *c = connect_worker(worker_socket);
    REQUIRE(c, "connect");
    fw_error err;
    CHECK(fw_ping(c, "faceworker", 10, &err) == FW_OK, "%s", err.message);
    CHECK(fw_ping(c, NULL, 0, &err) == FW_OK, "empty: %s", err.message);
    fw_set_busy_poll(c, 100);
    CHECK(fw_ping(c, "busy", 4, &err) == FW_OK, "busy-polling: %s", err.message);
    fw_close(c);
}

/* The astronaut's face centre in astronaut.jpg (manifest.json). */
static const fw_point astronaut_face = {225, 130};

static void check_astronaut(const fw_result *r)
{
    CHECK(fw_result_image_width(r) == 512 && fw_result_image_height(r) == 512, "size %ux%u",
          fw_result_image_width(r), fw_result_image_height(r));
    REQUIRE(fw_result_face_count(r) == 1, "one face, got %zu", fw_result_face_count(r));
    const fw_face *f = fw_result_face(r, 0);
    fw_box b = fw_face_box(f);
    fw_point c = box_centre(b);
    CHECK(distance(c, astronaut_face) < 25, "box centre (%.0f, %.0f) is on the face", c.x, c.y);
    CHECK(b.width > 60 && b.width < 180 && b.height > 60 && b.height < 180, "box size %.0fx%.0f", b.width,
          b.height);
    CHECK(fw_face_score(f) >= 0.5f && fw_face_score(f) <= 1, "score %g", fw_face_score(f));
    fw_point right, left;
    bool eyes = fw_face_keypoint(f, FW_KEYPOINT_RIGHT_EYE, &right, NULL) &&
                fw_face_keypoint(f, FW_KEYPOINT_LEFT_EYE, &left, NULL);
    CHECK(eyes, "eye keypoints");
    if (eyes)
        CHECK(right.x < left.x, "the person's right eye is on the image's left (%.0f < %.0f)", right.x, left.x);
}

static void test_worker_image_astronaut(void)
{
    struct fixture_session fx;
    REQUIRE(open_fixture_session(&fx, "astronaut.jpg", FW_MODE_IMAGE, false), "fixture and session");
    fw_result *r;
    fw_error err;
    int rc = fw_process_jpeg(fx.session, fx.jpeg, fx.len, 42, &r, &err);
    if (CHECK_AT(rc == FW_OK, "%s: %s", fw_status_name(rc), err.message)) {
        CHECK(fw_result_timestamp(r) == 42, "timestamp echoed");
        check_astronaut(r);
        if (fw_result_face_count(r) == 1) {
            const fw_face *f = fw_result_face(r, 0);
            int32_t id;
            CHECK(!fw_face_tracking_id(f, &id), "no tracking in IMAGE mode");
            CHECK(fw_face_landmark_count(f) == 0 && fw_face_mesh(f, NULL, 0) == 0, "nothing not asked for");
            float angle = 99;
            CHECK(!fw_face_head_euler_angle_x(f, &angle), "no pitch without the face mesh");
            CHECK(fw_face_head_euler_angle_z(f, &angle) && fabsf(angle) < 20,
                  "roll from the eye keypoints: %.1f", angle);
        }
        fw_timings t = fw_result_timings(r);
        CHECK(t.total_us > 0 && t.total_us >= t.queued_us && t.total_us >= t.detect_us, "timings %llu",
              (unsigned long long)t.total_us);
        CHECK(t.detect_us > 0 && fw_result_detector_ran(r), "the detector ran");
        fw_result_free(r);
    }
    CHECK(fw_close_session(fx.session, &err) == FW_OK, "%s", err.message);
    close_fixture_session(&fx);
}

static void test_worker_image_no_face(void)
{
    struct fixture_session fx;
    REQUIRE(open_fixture_session(&fx, "chelsea.jpg", FW_MODE_IMAGE, false), "fixture and session");
    fw_result *r;
    fw_error err;
    int rc = fw_process_jpeg(fx.session, fx.jpeg, fx.len, 0, &r, &err);
    if (CHECK_AT(rc == FW_OK, "%s: %s", fw_status_name(rc), err.message)) {
        CHECK(fw_result_face_count(r) == 0, "a cat is not a face: %zu faces", fw_result_face_count(r));
        CHECK(fw_result_image_width(r) == 451 && fw_result_image_height(r) == 300, "size");
        fw_result_free(r);
    }
    close_fixture_session(&fx);
}

static void test_worker_mlkit_outputs(void)
{
    size_t len;
    uint8_t *jpeg = load_fixture("astronaut.jpg", &len);
    REQUIRE(jpeg, "fixture");
    fw_client *c = connect_worker(worker_socket);
    fw_session_options o;
    fw_session_options_init(&o);
    o.landmarks = o.contours = o.classification = true;
    o.output_face_mesh = o.output_transformation_matrix = true;
    fw_error err;
    fw_session *s = c ? fw_open_session(c, &o, &err) : NULL;
    if (CHECK_AT(s != NULL, "session: %s", c ? err.message : "")) {
        fw_result *r;
        int rc = fw_process_jpeg(s, jpeg, len, 0, &r, &err);
        if (CHECK_AT(rc == FW_OK, "%s: %s", fw_status_name(rc), err.message)) {
            check_astronaut(r);
            const fw_face *f = fw_result_face(r, 0);
            if (f) {
                CHECK(fw_face_landmark_count(f) == 10, "10 landmarks, got %zu", fw_face_landmark_count(f));
                fw_point left, right;
                if (fw_face_landmark(f, FW_LANDMARK_LEFT_EYE, &left) &&
                    fw_face_landmark(f, FW_LANDMARK_RIGHT_EYE, &right))
                    CHECK(right.x < left.x && distance(right, astronaut_face) < 60, "eyes %.0f %.0f", right.x,
                          left.x);
                else
                    CHECK(false, "eye landmarks");
                CHECK(fw_face_contour_count(f) == 15, "15 contours, got %zu", fw_face_contour_count(f));
                for (int t = 1; t <= 15; t++) {
                    size_t n = fw_face_contour(f, (fw_contour_type)t, NULL, 0);
                    CHECK(n == contour_sizes[t - 1], "contour %d has %zu points", t, n);
                }
                size_t points = 0;
                const float *xyz = fw_face_mesh_xyz(f, &points);
                if (CHECK_AT(xyz && points == 478, "478 mesh points, got %zu", points)) {
                    const float *iris = xyz + 3 * 468;
                    CHECK(iris[0] > 0.2f && iris[0] < 0.6f && iris[1] > 0.1f && iris[1] < 0.4f,
                          "the right iris centre is on the face (%.2f, %.2f)", iris[0], iris[1]);
                }
                float m[16];
                CHECK(fw_face_transformation_matrix(f, m) && m[15] != 0, "transformation matrix");
                float x = 99, y = 99, z = 99;
                CHECK(fw_face_head_euler_angle_x(f, &x) && fw_face_head_euler_angle_y(f, &y) &&
                          fw_face_head_euler_angle_z(f, &z),
                      "head angles with the mesh");
                CHECK(fabsf(x) < 30 && fabsf(y) < 30 && fabsf(z) < 30,
                      "a face looking at the camera: %.1f %.1f %.1f", x, y, z);
                float smile = -1, leye = -1, reye = -1, presence = -1;
                CHECK(fw_face_smiling_probability(f, &smile) && smile > 0.5f, "the astronaut smiles: %g", smile);
                CHECK(fw_face_left_eye_open_probability(f, &leye) && leye > 0.5f, "left eye open: %g", leye);
                CHECK(fw_face_right_eye_open_probability(f, &reye) && reye > 0.5f, "right eye open: %g", reye);
                CHECK(fw_face_presence_score(f, &presence) && presence > 0.5f, "presence %g", presence);
                CHECK(fw_result_timings(r).landmarks_us > 0, "landmark time reported");
            }
            fw_result_free(r);
        }
    }
    fw_close(c);
    free(jpeg);
}

static void test_worker_raw_pixels_with_orientation(void)
{
    size_t len;
    uint8_t *jpeg = load_fixture("astronaut.jpg", &len);
    REQUIRE(jpeg, "fixture");
    int w, h;
    uint8_t *upright = decode_rgb(jpeg, len, &w, &h);
    free(jpeg);
    REQUIRE(upright, "decode");
    /* Stored turned 90 degrees counter-clockwise, with padded rows: the
     * worker must turn it clockwise (RIGHT_TOP) and honour the stride. */
    uint32_t sw = (uint32_t)h, sh = (uint32_t)w, stride = sw * 3 + 16;
    uint8_t *stored = calloc((size_t)stride * sh, 1);
    REQUIRE(stored, "malloc");
    for (uint32_t sy = 0; sy < sh; sy++)
        for (uint32_t sx = 0; sx < sw; sx++)
            memcpy(stored + (size_t)sy * stride + sx * 3, upright + ((size_t)sx * (size_t)w + (w - 1 - sy)) * 3, 3);
    free(upright);

    fw_client *c = connect_worker(worker_socket);
    fw_session *s = c ? open_session_in(c, FW_MODE_IMAGE, false) : NULL;
    if (CHECK_AT(s != NULL, "session")) {
        fw_frame f = {
            .pixels = stored,
            .pixels_len = (size_t)stride * sh,
            .format = FW_PIXEL_RGB,
            .width = sw,
            .height = sh,
            .row_stride = stride,
            .orientation = FW_ORIENTATION_RIGHT_TOP,
            .timestamp_ms = 7,
        };
        fw_result *r;
        fw_error err;
        int rc = fw_process(s, &f, &r, &err);
        if (CHECK_AT(rc == FW_OK, "%s: %s", fw_status_name(rc), err.message)) {
            check_astronaut(r);
            fw_result_free(r);
        }
        f.pixels_len -= 1;
        rc = fw_process(s, &f, &r, &err);
        CHECK(rc == FW_INVALID_ARGUMENT, "a byte short is refused: %s", fw_status_name(rc));
        CHECK(err.message[0] != '\0', "with a message");
    }
    fw_close(c);
    free(stored);
}

/* Where the face centre is on each frame of video/ (manifest.json). */
static const fw_point video_faces[24] = {
    {320.0f, 180.0f},   {338.117f, 190.0f}, {355.0f, 197.321f}, {369.497f, 200.0f}, {380.622f, 197.321f},
    {387.615f, 190.0f}, {390.0f, 180.0f},   {387.615f, 170.0f}, {380.622f, 162.679f}, {369.497f, 160.0f},
    {355.0f, 162.679f}, {338.117f, 170.0f}, {320.0f, 180.0f},   {301.883f, 190.0f}, {285.0f, 197.321f},
    {270.503f, 200.0f}, {259.378f, 197.321f}, {252.385f, 190.0f}, {250.0f, 180.0f}, {252.385f, 170.0f},
    {259.378f, 162.679f}, {270.503f, 160.0f}, {285.0f, 162.679f}, {301.883f, 170.0f},
};

static uint8_t *read_video_frame(int i, size_t *len)
{
    char name[64];
    snprintf(name, sizeof name, "video/frame_%03d.jpg", i);
    return load_fixture(name, len);
}

static void test_worker_video_tracking(void)
{
    fw_client *c = connect_worker(worker_socket);
    fw_session *s = c ? open_session_in(c, FW_MODE_VIDEO, true) : NULL;
    REQUIRE(s != NULL, "session");
    int32_t first_id = -1;
    int tracked = 0;
    for (int i = 0; i < 24; i++) {
        size_t len;
        uint8_t *jpeg = read_video_frame(i, &len);
        if (!CHECK_AT(jpeg != NULL, "frame %d", i))
            break;
        fw_result *r;
        fw_error err;
        int rc = fw_process_jpeg(s, jpeg, len, 1000 + i * 33, &r, &err);
        free(jpeg);
        if (!CHECK_AT(rc == FW_OK, "frame %d: %s: %s", i, fw_status_name(rc), err.message))
            break;
        CHECK(fw_result_timestamp(r) == 1000 + i * 33, "frame %d timestamp", i);
        if (CHECK_AT(fw_result_face_count(r) == 1, "frame %d: %zu faces", i, fw_result_face_count(r))) {
            const fw_face *f = fw_result_face(r, 0);
            fw_point centre = box_centre(fw_face_box(f));
            CHECK(distance(centre, video_faces[i]) < 35, "frame %d: box centre (%.0f, %.0f), face at (%.0f, %.0f)",
                  i, centre.x, centre.y, video_faces[i].x, video_faces[i].y);
            int32_t id = -1;
            if (CHECK_AT(fw_face_tracking_id(f, &id), "frame %d has a tracking id", i)) {
                CHECK(id >= 0, "non-negative id");
                if (first_id < 0)
                    first_id = id;
                CHECK(id == first_id, "frame %d: id %d, first frame's %d", i, id, first_id);
                tracked++;
            }
        }
        fw_result_free(r);
    }
    CHECK(tracked == 24, "tracked on %d of 24 frames", tracked);
    fw_close(c);
}

static void test_worker_timestamp_must_increase(void)
{
    struct fixture_session fx;
    REQUIRE(open_fixture_session(&fx, "video/frame_000.jpg", FW_MODE_VIDEO, true), "fixture and session");
    fw_result *r;
    fw_error err;
    CHECK(fw_process_jpeg(fx.session, fx.jpeg, fx.len, 100, &r, &err) == FW_OK, "%s", err.message);
    fw_result_free(r);
    int rc = fw_process_jpeg(fx.session, fx.jpeg, fx.len, 100, &r, &err);
    CHECK(rc == FW_INVALID_ARGUMENT, "an equal timestamp: %s", fw_status_name(rc));
    CHECK(err.message[0] != '\0' && r == NULL, "refused with the worker's message");
    fprintf(stderr, "    (worker said: %s)\n", err.message);
    rc = fw_process_jpeg(fx.session, fx.jpeg, fx.len, 50, &r, &err);
    CHECK(rc == FW_INVALID_ARGUMENT, "an earlier timestamp: %s", fw_status_name(rc));
    rc = fw_process_jpeg(fx.session, fx.jpeg, fx.len, 133, &r, &err);
    if (CHECK_AT(rc == FW_OK, "the session stays usable: %s", err.message)) {
        CHECK(fw_result_face_count(r) == 1, "and still finds the face");
        fw_result_free(r);
    }
    /* After a reset, time may start again. */
    CHECK(fw_reset_session(fx.session, &err) == FW_OK, "reset: %s", err.message);
    rc = fw_process_jpeg(fx.session, fx.jpeg, fx.len, 0, &r, &err);
    CHECK(rc == FW_OK, "timestamp 0 after reset: %s", err.message);
    fw_result_free(r);
    close_fixture_session(&fx);
}

static void test_worker_corrupt_jpeg(void)
{
    struct fixture_session fx;
    REQUIRE(open_fixture_session(&fx, "astronaut.jpg", FW_MODE_IMAGE, false), "fixture and session");
    fw_result *r;
    fw_error err;
    const uint8_t text[] = "this is not a JPEG file";
    int rc = fw_process_jpeg(fx.session, text, sizeof text, 0, &r, &err);
    CHECK(rc == FW_INVALID_ARGUMENT, "text: %s", fw_status_name(rc));
    CHECK(err.message[0] != '\0', "with a message");
    uint8_t garbled[64];
    memcpy(garbled, fx.jpeg, 4); /* SOI and the start of a segment */
    memset(garbled + 4, 0xa5, sizeof garbled - 4);
    rc = fw_process_jpeg(fx.session, garbled, sizeof garbled, 0, &r, &err);
    CHECK(rc == FW_INVALID_ARGUMENT, "a JPEG start and then noise: %s", fw_status_name(rc));
    rc = fw_process_jpeg(fx.session, fx.jpeg, 0, 0, &r, &err);
    CHECK(rc == FW_INVALID_ARGUMENT, "no bytes: %s", fw_status_name(rc));
    rc = fw_process_jpeg(fx.session, fx.jpeg, fx.len, 0, &r, &err);
    if (CHECK_AT(rc == FW_OK, "a good frame after bad ones: %s", err.message)) {
        check_astronaut(r);
        fw_result_free(r);
    }
    close_fixture_session(&fx);
}

static void test_worker_contradictory_options(void)
{
    fw_client *c = connect_worker(worker_socket);
    REQUIRE(c, "connect");
    fw_session_options o;
    fw_error err;
    const char *what[] = {"tracking in IMAGE mode", "running mode 9", "performance mode 7",
                          "blendshapes with the attention mesh", "mesh model 5"};
    const char *field[] = {"tracking_enabled", "running_mode", "performance_mode", "output_face_blendshapes",
                           "mesh_model"};
    for (int i = 0; i < 5; i++) {
        fw_session_options_init(&o);
        switch (i) {
        case 0: o.tracking_enabled = true; break;
        case 1: o.running_mode = (fw_running_mode)9; break;
        case 2: o.performance_mode = (fw_performance_mode)7; break;
        case 3: o.output_face_blendshapes = true; break;
        case 4: o.mesh_model = (fw_mesh_model)5; break;
        }
        fw_session *s = fw_open_session(c, &o, &err);
        CHECK(s == NULL, "%s is refused", what[i]);
        CHECK(err.code == FW_INVALID_ARGUMENT, "%s: %s", what[i], fw_status_name(err.code));
        CHECK(contains(err.message, field[i]), "%s: the message names %s: %s", what[i], field[i], err.message);
        fw_close_session(s, NULL);
    }
    fw_session *s = fw_open_session(c, NULL, &err);
    CHECK(s != NULL, "the connection goes on after refusals: %s", err.message);
    fw_close(c);
}

/* The score of the blendshape named `name`, or -1 when no name is. */
static float blendshape_score(const char *const *names, const float *scores, size_t count, const char *name)
{
    for (size_t i = 0; i < count; i++)
        if (strcmp(names[i], name) == 0)
            return scores[i];
    return -1;
}

static void test_worker_blendshapes(void)
{
    size_t len;
    uint8_t *jpeg = load_fixture("astronaut.jpg", &len);
    REQUIRE(jpeg, "fixture");
    fw_client *c = connect_worker(worker_socket);
    fw_client *follower = connect_worker(worker_socket);
    fw_session_options o;
    fw_session_options_init(&o);
    o.mesh_model = FW_MESH_FACE_LANDMARKER;
    o.output_face_blendshapes = true;
    fw_error err;
    fw_session *s = c ? fw_open_named_session(c, &o, "c-client-blendshapes", &err) : NULL;
    if (CHECK_AT(s != NULL, "session: %s", c ? err.message : "")) {
        size_t count = 0;
        const char *const *names = fw_session_blendshape_names(s, &count);
        CHECK(names && count == FW_BLENDSHAPE_COUNT, "52 names, got %zu", count);
        for (size_t i = 0; names && i < count; i++) {
            CHECK(names[i][0] != '\0', "name %zu is not empty", i);
            for (size_t j = 0; j < i; j++)
                CHECK(strcmp(names[i], names[j]) != 0, "names %zu and %zu are both %s", j, i, names[i]);
        }
        fw_subscription *sub = follower ? fw_subscribe(follower, "c-client-blendshapes", &err) : NULL;
        if (CHECK_AT(sub != NULL, "subscribe: %s", follower ? err.message : "")) {
            size_t sub_count = 0;
            const char *const *sub_names = fw_subscription_blendshape_names(sub, &sub_count);
            CHECK(sub_count == count, "the subscriber gets %zu names", sub_count);
            for (size_t i = 0; sub_names && names && i < sub_count && i < count; i++)
                CHECK(strcmp(sub_names[i], names[i]) == 0, "name %zu: %s, the producer's %s", i, sub_names[i],
                      names[i]);
            fw_unsubscribe(sub, NULL);
        }
        fw_result *r;
        int rc = fw_process_jpeg(s, jpeg, len, 0, &r, &err);
        if (CHECK_AT(rc == FW_OK, "%s: %s", fw_status_name(rc), err.message)) {
            const fw_face *f = fw_result_face(r, 0);
            if (CHECK_AT(f != NULL, "a face")) {
                size_t scores_count = 0;
                const float *scores = fw_face_blendshapes(f, &scores_count);
                CHECK(scores && scores_count == count, "one score per name, got %zu", scores_count);
                for (size_t i = 0; scores && i < scores_count; i++)
                    CHECK(scores[i] >= 0 && scores[i] <= 1, "score %zu is %g", i, scores[i]);
                if (scores && names && scores_count == count) {
                    float smile_left = blendshape_score(names, scores, count, "mouthSmileLeft");
                    float smile_right = blendshape_score(names, scores, count, "mouthSmileRight");
                    float blink = blendshape_score(names, scores, count, "eyeBlinkLeft");
                    CHECK(smile_left > 0.3f && smile_right > 0.3f, "the astronaut smiles: %g %g", smile_left,
                          smile_right);
                    CHECK(blink >= 0 && blink < smile_left, "with open eyes: blink %g", blink);
                }
                size_t points = 0;
                CHECK(fw_face_mesh_xyz(f, &points) == NULL && points == 0, "no mesh unless asked for");
            }
            fw_result_free(r);
        }
    }
    /* The attention mesh: neither names nor scores. */
    fw_session_options_init(&o);
    o.output_face_mesh = true;
    fw_session *mesh = c ? fw_open_session(c, &o, &err) : NULL;
    if (CHECK_AT(mesh != NULL, "attention mesh session: %s", c ? err.message : "")) {
        size_t count = 42;
        CHECK(fw_session_blendshape_names(mesh, &count) == NULL && count == 0, "no names");
        fw_result *r;
        if (CHECK_AT(fw_process_jpeg(mesh, jpeg, len, 0, &r, &err) == FW_OK, "%s", err.message)) {
            const fw_face *f = fw_result_face(r, 0);
            if (CHECK_AT(f != NULL, "a face"))
                CHECK(fw_face_blendshapes(f, &count) == NULL && count == 0, "no scores");
            fw_result_free(r);
        }
    }
    fw_close(follower);
    fw_close(c);
    free(jpeg);
}

struct live_tally {
    int results, dropped, errors;
    int seen[64];
    int64_t last_result_ts;
    bool results_in_order;
};

static void tally(struct live_tally *t, const fw_event *ev, int64_t base)
{
    int64_t i = ev->timestamp_ms - base;
    if (i >= 0 && i < 64)
        t->seen[i]++;
    switch (ev->type) {
    case FW_EVENT_RESULT:
        t->results++;
        if (fw_result_timestamp(ev->result) != ev->timestamp_ms || ev->timestamp_ms <= t->last_result_ts)
            t->results_in_order = false;
        t->last_result_ts = ev->timestamp_ms;
        CHECK(fw_result_face_count(ev->result) == 1, "frame %lld: %zu faces", (long long)ev->timestamp_ms,
              fw_result_face_count(ev->result));
        fw_result_free(ev->result);
        break;
    case FW_EVENT_DROPPED:
        t->dropped++;
        CHECK(ev->drop_reason == FW_DROP_REPLACED, "dropped as replaced: %d", ev->drop_reason);
        break;
    case FW_EVENT_ERROR:
        t->errors++;
        fprintf(stderr, "    frame %lld: %s\n", (long long)ev->timestamp_ms, ev->error.message);
        break;
    case FW_EVENT_RESTARTED:
        t->errors++;
        fprintf(stderr, "    the session restarted, though the worker did not\n");
        break;
    case FW_EVENT_NONE:
        break;
    }
}

static void test_worker_live_stream(void)
{
    uint8_t *frames[24];
    size_t lens[24];
    for (int i = 0; i < 24; i++) {
        frames[i] = read_video_frame(i, &lens[i]);
        if (!frames[i]) {
            CHECK(false, "frame %d", i);
            for (int j = 0; j < i; j++)
                free(frames[j]);
            return;
        }
    }
    fw_client *c = connect_worker(worker_socket);
    fw_session *s = c ? open_session_in(c, FW_MODE_LIVE_STREAM, true) : NULL;
    struct live_tally t = {.results_in_order = true, .last_result_ts = -1};
    if (CHECK_AT(s != NULL, "session")) {
        fw_error err;
        fw_event ev;
        for (int i = 0; i < 24; i++) {
            CHECK(fw_send_jpeg(s, frames[i], lens[i], 5000 + i, &err) == FW_OK, "send %d: %s", i, err.message);
            /* Never waits: takes whatever has arrived. */
            while (fw_poll(s, 0, &ev, &err) == FW_OK && ev.type != FW_EVENT_NONE)
                tally(&t, &ev, 5000);
        }
        while (fw_session_pending(s) > 0) {
            if (!CHECK_AT(fw_poll(s, -1, &ev, &err) == FW_OK, "%s", err.message))
                break;
            tally(&t, &ev, 5000);
        }
        CHECK(t.results + t.dropped == 24, "every frame answered or dropped: %d + %d", t.results, t.dropped);
        CHECK(t.errors == 0, "no errors");
        bool once = true;
        for (int i = 0; i < 24; i++)
            once = once && t.seen[i] == 1;
        CHECK(once, "each frame answered exactly once");
        CHECK(t.seen[23] == 1 && t.last_result_ts == 5023, "the newest frame is never dropped");
        CHECK(t.results_in_order, "results come in frame order and echo their timestamps");
        fprintf(stderr, "    (live stream: %d results, %d dropped)\n", t.results, t.dropped);
    }
    fw_close(c);
    for (int i = 0; i < 24; i++)
        free(frames[i]);
}

static void test_worker_two_live_sessions_one_connection(void)
{
    size_t len;
    uint8_t *jpeg = load_fixture("astronaut.jpg", &len);
    REQUIRE(jpeg, "fixture");
    fw_client *c = connect_worker(worker_socket);
    fw_session *a = c ? open_session_in(c, FW_MODE_LIVE_STREAM, false) : NULL;
    fw_session *b = c ? open_session_in(c, FW_MODE_LIVE_STREAM, false) : NULL;
    if (CHECK_AT(a && b, "sessions")) {
        fw_error err;
        for (int i = 0; i < 6; i++) {
            CHECK(fw_send_jpeg(a, jpeg, len, 100 + i, &err) == FW_OK, "%s", err.message);
            CHECK(fw_send_jpeg(b, jpeg, len, 200 + i, &err) == FW_OK, "%s", err.message);
        }
        fw_session *both[2] = {a, b};
        for (int k = 0; k < 2; k++) {
            int answered = 0;
            while (fw_session_pending(both[k]) > 0) {
                fw_event ev;
                if (!CHECK_AT(fw_poll(both[k], -1, &ev, &err) == FW_OK, "%s", err.message))
                    break;
                int64_t base = k == 0 ? 100 : 200;
                CHECK(ev.timestamp_ms >= base && ev.timestamp_ms < base + 6, "session %d got frame %lld", k,
                      (long long)ev.timestamp_ms);
                CHECK(ev.type == FW_EVENT_RESULT || ev.type == FW_EVENT_DROPPED, "type %d", ev.type);
                if (ev.type == FW_EVENT_RESULT)
                    CHECK(fw_result_face_count(ev.result) == 1, "face found");
                fw_result_free(ev.result);
                answered++;
            }
            CHECK(answered == 6, "session %d: %d answers", k, answered);
        }
    }
    fw_close(c);
    free(jpeg);
}

static void test_worker_close_with_frames_in_flight(void)
{
    struct fixture_session fx;
    REQUIRE(open_fixture_session(&fx, "astronaut.jpg", FW_MODE_LIVE_STREAM, false), "fixture and session");
    fw_error err;
    for (int i = 0; i < 5; i++)
        CHECK(fw_send_jpeg(fx.session, fx.jpeg, fx.len, i + 1, &err) == FW_OK, "%s", err.message);
    CHECK(fw_close_session(fx.session, &err) == FW_OK, "close with frames in flight: %s", err.message);
    CHECK(fw_ping(fx.client, NULL, 0, &err) == FW_OK, "the connection goes on: %s", err.message);
    close_fixture_session(&fx);
}

static void test_worker_stats(void)
{
    struct fixture_session fx;
    REQUIRE(open_fixture_session(&fx, "astronaut.jpg", FW_MODE_IMAGE, false), "fixture and session");
    fw_error err;
    fw_stats before, after;
    fw_stats_init(&before);
    fw_stats_init(&after);
    CHECK(fw_get_stats(fx.client, &before, &err) == FW_OK, "%s", err.message);
    fw_result *r;
    CHECK(fw_process_jpeg(fx.session, fx.jpeg, fx.len, 0, &r, &err) == FW_OK, "%s", err.message);
    fw_result_free(r);
    CHECK(fw_process_jpeg(fx.session, fx.jpeg, 3, 0, &r, &err) == FW_INVALID_ARGUMENT, "a failed frame");
    if (CHECK_AT(fw_get_stats(fx.client, &after, &err) == FW_OK, "%s", err.message)) {
        CHECK(after.frames_processed >= before.frames_processed + 1, "processed counted");
        CHECK(after.frames_failed >= before.frames_failed + 1, "failed counted");
        CHECK(after.sessions >= 1 && after.connections >= 1, "this session and connection are counted");
        CHECK(after.uptime_seconds > 0, "uptime");
        CHECK(after.inference_threads >= 1, "inference threads");
        CHECK(after.resident_memory_bytes > 1024 * 1024, "RSS %llu",
              (unsigned long long)after.resident_memory_bytes);
        const fw_stage_latency *total = &after.stages[FW_STAGE_TOTAL];
        CHECK(total->count >= 1 && total->p50_us <= total->p99_us, "total latency over %llu frames",
              (unsigned long long)total->count);
        CHECK(after.model_count == 5, "the four models and the Face Landmarker's bundle, got %zu", after.model_count);
        bool mesh = false, bundle = false;
        for (size_t i = 0; i < after.model_count; i++) {
            mesh = mesh || strcmp(after.models[i].name, "face_landmark.tflite") == 0;
            bundle = bundle || strcmp(after.models[i].name, "face_landmarker.task") == 0;
            CHECK(strlen(after.models[i].sha256) == 64 && strspn(after.models[i].sha256, "0123456789abcdef") == 64,
                  "sha256 of %s", after.models[i].name);
            CHECK(after.models[i].size_bytes > 100000, "size of %s", after.models[i].name);
        }
        CHECK(mesh, "face_landmark.tflite is listed");
        CHECK(bundle, "face_landmarker.task is listed");
    }
    close_fixture_session(&fx);
}

int main(int argc, char **argv)
{
    if (!parse_test_arguments(argc, argv, &fixtures_dir, &worker_socket))
        return 2;
    if (!worker_socket) {
        fprintf(stderr, "test_worker: --socket names the worker to test\n");
        return 2;
    }

    RUN(test_worker_ping);
    RUN(test_worker_image_astronaut);
    RUN(test_worker_image_no_face);
    RUN(test_worker_mlkit_outputs);
    RUN(test_worker_raw_pixels_with_orientation);
    RUN(test_worker_video_tracking);
    RUN(test_worker_timestamp_must_increase);
    RUN(test_worker_corrupt_jpeg);
    RUN(test_worker_contradictory_options);
    RUN(test_worker_blendshapes);
    RUN(test_worker_live_stream);
    RUN(test_worker_two_live_sessions_one_connection);
    RUN(test_worker_close_with_frames_in_flight);
    RUN(test_worker_stats);

    printf("%d passed, %d failed\n", tests_passed, tests_failed);
    return tests_failed == 0 ? 0 : 1;
}
