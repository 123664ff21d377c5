/*
 * Tests of what libfaceworker hands out from the worker's answers, against
 * a scripted fake worker: every result and face accessor on a face with
 * every field set and on one with none, a refusal that leaves the session
 * usable, and the options a worker reports in effect. No worker is needed.
 *
 *   test_results
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

static void answer_close(int fd, const ClientMessage *m)
{
    Faceworker__V1__CloseSessionResponse closed = FACEWORKER__V1__CLOSE_SESSION_RESPONSE__INIT;
    closed.session_id = m->close_session->session_id;
    WorkerMessage w = FACEWORKER__V1__WORKER_MESSAGE__INIT;
    w.call_id = m->call_id;
    w.kind_case = FACEWORKER__V1__WORKER_MESSAGE__KIND_CLOSE_SESSION;
    w.close_session = &closed;
    fake_write(fd, &w);
}

/* Every field of a face filled with known values. */
struct rich_face {
    Faceworker__V1__Face face;
    Faceworker__V1__BoundingBox box;
    Faceworker__V1__Point points[6 + 10][2];
    Faceworker__V1__Keypoint keypoints[6];
    Faceworker__V1__Keypoint *keypoint_ptrs[6];
    Faceworker__V1__Landmark landmarks[10];
    Faceworker__V1__Landmark *landmark_ptrs[10];
    Faceworker__V1__Contour contours[15];
    Faceworker__V1__Contour *contour_ptrs[15];
    float contour_points[15][36 * 2];
    float mesh[478 * 3];
    float matrix[16];
    float blendshapes[FW_BLENDSHAPE_COUNT];
};

static void fill_rich_face(struct rich_face *r)
{
    faceworker__v1__face__init(&r->face);
    Faceworker__V1__Face *f = &r->face;
    faceworker__v1__bounding_box__init(&r->box);
    r->box = (Faceworker__V1__BoundingBox){.base = r->box.base, .x = 10, .y = 20, .width = 30, .height = 40};
    f->bounding_box = &r->box;
    f->score = 0.875f;
    for (int i = 0; i < 6; i++) {
        faceworker__v1__keypoint__init(&r->keypoints[i]);
        faceworker__v1__point__init(&r->points[i][0]);
        faceworker__v1__point__init(&r->points[i][1]);
        r->points[i][0].x = 0.1f * (float)(i + 1);
        r->points[i][0].y = 0.05f;
        r->points[i][1].x = 64.0f * (float)(i + 1);
        r->points[i][1].y = 18.0f;
        r->keypoints[i].type = (Faceworker__V1__KeypointType)(i + 1);
        r->keypoints[i].normalized = &r->points[i][0];
        r->keypoints[i].position = &r->points[i][1];
        r->keypoint_ptrs[i] = &r->keypoints[i];
    }
    f->n_keypoints = 6;
    f->keypoints = r->keypoint_ptrs;
    for (int i = 0; i < 10; i++) {
        faceworker__v1__landmark__init(&r->landmarks[i]);
        faceworker__v1__point__init(&r->points[6 + i][0]);
        r->points[6 + i][0].x = 100.0f + (float)i;
        r->points[6 + i][0].y = 200.0f + (float)i;
        r->landmarks[i].type = (Faceworker__V1__LandmarkType)(i + 1);
        r->landmarks[i].position = &r->points[6 + i][0];
        r->landmark_ptrs[i] = &r->landmarks[i];
    }
    f->n_landmarks = 10;
    f->landmarks = r->landmark_ptrs;
    for (int i = 0; i < 15; i++) {
        faceworker__v1__contour__init(&r->contours[i]);
        r->contours[i].type = (Faceworker__V1__ContourType)(i + 1);
        for (size_t j = 0; j < contour_sizes[i]; j++) {
            r->contour_points[i][2 * j] = (float)(i * 100) + (float)j;
            r->contour_points[i][2 * j + 1] = -(float)j;
        }
        r->contours[i].n_points_xy = 2 * contour_sizes[i];
        r->contours[i].points_xy = r->contour_points[i];
        r->contour_ptrs[i] = &r->contours[i];
    }
    f->n_contours = 15;
    f->contours = r->contour_ptrs;
    for (int i = 0; i < 478; i++) {
        r->mesh[3 * i] = (float)i / 1000.0f;
        r->mesh[3 * i + 1] = 0.5f;
        r->mesh[3 * i + 2] = -(float)i;
    }
    f->n_mesh_xyz = 478 * 3;
    f->mesh_xyz = r->mesh;
    for (int i = 0; i < 16; i++)
        r->matrix[i] = (float)i * 0.5f;
    f->n_transformation_matrix = 16;
    f->transformation_matrix = r->matrix;
    for (int i = 0; i < FW_BLENDSHAPE_COUNT; i++)
        r->blendshapes[i] = (float)i / 64.0f;
    f->n_blendshapes = FW_BLENDSHAPE_COUNT;
    f->blendshapes = r->blendshapes;
    f->optional_head_euler_angle_x_case = FACEWORKER__V1__FACE__OPTIONAL_HEAD_EULER_ANGLE_X_HEAD_EULER_ANGLE_X;
    f->head_euler_angle_x = 1.5f;
    f->optional_head_euler_angle_y_case = FACEWORKER__V1__FACE__OPTIONAL_HEAD_EULER_ANGLE_Y_HEAD_EULER_ANGLE_Y;
    f->head_euler_angle_y = -2.5f;
    f->optional_head_euler_angle_z_case = FACEWORKER__V1__FACE__OPTIONAL_HEAD_EULER_ANGLE_Z_HEAD_EULER_ANGLE_Z;
    f->head_euler_angle_z = 3.5f;
    f->optional_smiling_probability_case =
        FACEWORKER__V1__FACE__OPTIONAL_SMILING_PROBABILITY_SMILING_PROBABILITY;
    f->smiling_probability = 0.75f;
    f->optional_left_eye_open_probability_case =
        FACEWORKER__V1__FACE__OPTIONAL_LEFT_EYE_OPEN_PROBABILITY_LEFT_EYE_OPEN_PROBABILITY;
    f->left_eye_open_probability = 0.625f;
    f->optional_right_eye_open_probability_case =
        FACEWORKER__V1__FACE__OPTIONAL_RIGHT_EYE_OPEN_PROBABILITY_RIGHT_EYE_OPEN_PROBABILITY;
    f->right_eye_open_probability = 0.5f;
    f->optional_tracking_id_case = FACEWORKER__V1__FACE__OPTIONAL_TRACKING_ID_TRACKING_ID;
    f->tracking_id = 0;
    f->optional_presence_score_case = FACEWORKER__V1__FACE__OPTIONAL_PRESENCE_SCORE_PRESENCE_SCORE;
    f->presence_score = 0.9375f;
}

struct status_record {
    int64_t timestamps[2];
    uint64_t session_ids[2];
};

/* The first frame is refused, the second answered with a rich face and a
 * bare one. */
static void script_refuse_then_answer(int fd, void *arg)
{
    struct status_record *r = arg;
    ClientMessage *open = fake_read(fd);
    if (!open)
        return;
    fake_answer_open(fd, open, 3, open->open_session->options);
    faceworker__v1__client_message__free_unpacked(open, NULL);

    ClientMessage *m = fake_read(fd);
    if (!m)
        return;
    r->timestamps[0] = m->process_frame->frame->timestamp_ms;
    r->session_ids[0] = m->process_frame->session_id;
    fake_write_status(fd, m->call_id, FACEWORKER__V1__STATUS__CODE__INVALID_ARGUMENT,
                      "timestamp 5 ms is not after the previous frame's 10 ms");
    faceworker__v1__client_message__free_unpacked(m, NULL);

    m = fake_read(fd);
    if (!m)
        return;
    r->timestamps[1] = m->process_frame->frame->timestamp_ms;
    r->session_ids[1] = m->process_frame->session_id;
    static struct rich_face rich;
    fill_rich_face(&rich);
    Faceworker__V1__Face bare;
    faceworker__v1__face__init(&bare);
    Faceworker__V1__Face *faces[2] = {&rich.face, &bare};
    Faceworker__V1__StageTimings timings = FACEWORKER__V1__STAGE_TIMINGS__INIT;
    timings.received_unix_us = 1700000000000000;
    timings.queued_us = 11;
    timings.decode_us = 22;
    timings.detect_us = 33;
    timings.landmarks_us = 44;
    timings.total_us = 111;
    Faceworker__V1__FrameResult result = FACEWORKER__V1__FRAME_RESULT__INIT;
    result.session_id = m->process_frame->session_id;
    result.timestamp_ms = m->process_frame->frame->timestamp_ms;
    result.image_width = 640;
    result.image_height = 360;
    result.n_faces = 2;
    result.faces = faces;
    result.timings = &timings;
    result.detector_ran = true;
    WorkerMessage w = FACEWORKER__V1__WORKER_MESSAGE__INIT;
    w.call_id = m->call_id;
    w.kind_case = FACEWORKER__V1__WORKER_MESSAGE__KIND_FRAME_RESULT;
    w.frame_result = &result;
    fake_write(fd, &w);
    faceworker__v1__client_message__free_unpacked(m, NULL);
    fake_wait_for_hangup(fd);
}

static void check_rich_face(const fw_face *f)
{
    fw_box b = fw_face_box(f);
    CHECK(b.x == 10 && b.y == 20 && b.width == 30 && b.height == 40, "box %g %g %g %g", b.x, b.y, b.width,
          b.height);
    CHECK(fw_face_score(f) == 0.875f, "score");

    fw_point pos, norm;
    CHECK(fw_face_keypoint(f, FW_KEYPOINT_NOSE_TIP, &pos, &norm), "nose tip present");
    CHECK(pos.x == 192 && pos.y == 18, "nose tip position %g %g", pos.x, pos.y);
    CHECK(fabsf(norm.x - 0.3f) < 1e-6f && norm.y == 0.05f, "nose tip normalized %g %g", norm.x, norm.y);
    CHECK(fw_face_keypoint(f, FW_KEYPOINT_LEFT_EAR_TRAGION, NULL, NULL), "out pointers may be NULL");

    CHECK(fw_face_landmark_count(f) == 10, "10 landmarks");
    CHECK(fw_face_landmark(f, FW_LANDMARK_NOSE_BASE, &pos) && pos.x == 109 && pos.y == 209, "nose base %g %g",
          pos.x, pos.y);

    CHECK(fw_face_contour_count(f) == 15, "15 contours");
    for (int t = 1; t <= 15; t++)
        CHECK(fw_face_contour(f, (fw_contour_type)t, NULL, 0) == contour_sizes[t - 1], "contour %d size", t);
    fw_point few[5] = {{0}};
    few[4] = (fw_point){-7, -7};
    CHECK(fw_face_contour(f, FW_CONTOUR_FACE, few, 4) == 36, "a short buffer still reports the size");
    CHECK(few[3].x == 3 && few[3].y == -3, "and holds the first points");
    CHECK(few[4].x == -7, "without writing past cap");
    fw_point nose[3];
    CHECK(fw_face_contour(f, FW_CONTOUR_NOSE_BOTTOM, nose, 3) == 3 && nose[2].x == 1202, "nose bottom");

    size_t points = 0;
    const float *xyz = fw_face_mesh_xyz(f, &points);
    CHECK(xyz && points == 478, "478 packed mesh points, got %zu", points);
    if (xyz)
        CHECK(xyz[3 * 477] == 0.477f && xyz[3 * 477 + 1] == 0.5f && xyz[3 * 477 + 2] == -477,
              "last packed point %g %g %g", xyz[3 * 477], xyz[3 * 477 + 1], xyz[3 * 477 + 2]);
    fw_point3 mesh[478];
    CHECK(fw_face_mesh(f, mesh, 478) == 478, "478 mesh points");
    CHECK(mesh[477].x == 0.477f && mesh[477].y == 0.5f && mesh[477].z == -477, "last mesh point %g %g %g",
          mesh[477].x, mesh[477].y, mesh[477].z);
    fw_point3 few3[3] = {{0}};
    few3[2] = (fw_point3){-7, -7, -7};
    CHECK(fw_face_mesh(f, few3, 2) == 478, "a short buffer still reports the size");
    CHECK(few3[1].x == 0.001f && few3[1].z == -1 && few3[2].x == -7, "and holds the first points only");
    CHECK(fw_face_mesh(f, NULL, 0) == 478, "size without a buffer");

    size_t scores = 0;
    const float *blendshapes = fw_face_blendshapes(f, &scores);
    CHECK(blendshapes && scores == FW_BLENDSHAPE_COUNT, "52 blendshape scores, got %zu", scores);
    if (blendshapes)
        CHECK(blendshapes[0] == 0 && blendshapes[51] == 51.0f / 64.0f, "scores in order: %g %g", blendshapes[0],
              blendshapes[51]);

    float m[16];
    CHECK(fw_face_transformation_matrix(f, m) && m[15] == 7.5f, "matrix");
    float x = 0, y = 0, z = 0;
    CHECK(fw_face_head_euler_angle_x(f, &x) && fw_face_head_euler_angle_y(f, &y) &&
              fw_face_head_euler_angle_z(f, &z) && x == 1.5f && y == -2.5f && z == 3.5f,
          "euler %g %g %g", x, y, z);
    float p = -1;
    CHECK(fw_face_smiling_probability(f, &p) && p == 0.75f, "smiling %g", p);
    CHECK(fw_face_left_eye_open_probability(f, &p) && p == 0.625f, "left eye %g", p);
    CHECK(fw_face_right_eye_open_probability(f, &p) && p == 0.5f, "right eye %g", p);
    int32_t id = -1;
    CHECK(fw_face_tracking_id(f, &id) && id == 0, "tracking id 0 is present, not absent");
    CHECK(fw_face_presence_score(f, &p) && p == 0.9375f, "presence %g", p);
}

static void check_bare_face(const fw_face *f)
{
    fw_box b = fw_face_box(f);
    CHECK(b.x == 0 && b.width == 0, "no box reads as zeros");
    fw_point pos = {-1, -1};
    CHECK(!fw_face_keypoint(f, FW_KEYPOINT_RIGHT_EYE, &pos, NULL) && pos.x == -1, "no keypoints");
    CHECK(fw_face_landmark_count(f) == 0 && !fw_face_landmark(f, FW_LANDMARK_LEFT_EYE, &pos), "no landmarks");
    CHECK(fw_face_contour_count(f) == 0 && fw_face_contour(f, FW_CONTOUR_FACE, NULL, 0) == 0, "no contours");
    size_t points = 42;
    CHECK(fw_face_mesh_xyz(f, &points) == NULL && points == 0, "no packed mesh");
    CHECK(fw_face_mesh(f, NULL, 0) == 0, "no mesh");
    size_t scores = 42;
    CHECK(fw_face_blendshapes(f, &scores) == NULL && scores == 0, "no blendshapes");
    float m[16] = {42};
    CHECK(!fw_face_transformation_matrix(f, m) && m[0] == 42, "no matrix");
    float v = 42;
    CHECK(!fw_face_head_euler_angle_x(f, &v) && !fw_face_head_euler_angle_y(f, &v) &&
              !fw_face_head_euler_angle_z(f, &v) && v == 42,
          "no angles");
    CHECK(!fw_face_smiling_probability(f, &v) && !fw_face_left_eye_open_probability(f, &v) &&
              !fw_face_right_eye_open_probability(f, &v) && !fw_face_presence_score(f, &v) && v == 42,
          "no probabilities");
    int32_t id = 42;
    CHECK(!fw_face_tracking_id(f, &id) && id == 42, "no tracking id");
}

static void test_wire_worker_error_keeps_session(void)
{
    struct status_record rec = {{0}, {0}};
    fake_worker *w;
    fw_client *c = fake_connect(script_refuse_then_answer, &rec, &w);
    REQUIRE(c, "fake worker");
    fw_error err;
    fw_session *s = open_session_in(c, FW_MODE_VIDEO, true);
    if (CHECK_AT(s != NULL, "session")) {
        const uint8_t jpeg[] = {0xff, 0xd8, 0xff};
        fw_result *r = (fw_result *)&err;
        int rc = fw_process_jpeg(s, jpeg, sizeof jpeg, 5, &r, &err);
        CHECK(rc == FW_INVALID_ARGUMENT && err.code == FW_INVALID_ARGUMENT, "refused: %s", fw_status_name(rc));
        CHECK(strcmp(err.message, "timestamp 5 ms is not after the previous frame's 10 ms") == 0,
              "the worker's own message: %s", err.message);
        CHECK(r == NULL, "no result on failure");

        rc = fw_process_jpeg(s, jpeg, sizeof jpeg, 11, &r, &err);
        if (CHECK_AT(rc == FW_OK, "the session goes on: %s", err.message)) {
            CHECK(fw_result_timestamp(r) == 11, "timestamp");
            CHECK(fw_result_image_width(r) == 640 && fw_result_image_height(r) == 360, "image size");
            CHECK(fw_result_detector_ran(r), "detector ran");
            fw_timings t = fw_result_timings(r);
            CHECK(t.received_unix_us == 1700000000000000 && t.queued_us == 11 && t.decode_us == 22 &&
                      t.detect_us == 33 && t.landmarks_us == 44 && t.total_us == 111,
                  "timings");
            CHECK(fw_result_face_count(r) == 2, "two faces");
            CHECK(fw_result_face(r, 2) == NULL, "no third face");
            if (fw_result_face_count(r) == 2) {
                check_rich_face(fw_result_face(r, 0));
                check_bare_face(fw_result_face(r, 1));
            }
            fw_result_free(r);
        }
    }
    fake_disconnect(c, w);
    CHECK(rec.timestamps[0] == 5 && rec.timestamps[1] == 11, "timestamps sent");
    CHECK(rec.session_ids[0] == 3 && rec.session_ids[1] == 3, "session id sent");
}

struct options_record {
    bool all_present;
    Faceworker__V1__SessionOptions seen;
};

static void script_cap_options(int fd, void *arg)
{
    struct options_record *r = arg;
    ClientMessage *m = fake_read(fd);
    if (!m)
        return;
    const Faceworker__V1__SessionOptions *o = m->open_session->options;
    r->seen = *o;
    r->all_present = o->optional_min_face_size_case && o->optional_min_detection_confidence_case &&
                     o->optional_min_suppression_threshold_case && o->optional_num_faces_case &&
                     o->optional_min_face_presence_confidence_case && o->optional_min_tracking_confidence_case &&
                     o->optional_max_missed_frames_case;
    /* The worker caps num_faces and leaves min_face_size unset. */
    Faceworker__V1__SessionOptions echo = *o;
    echo.num_faces = 3;
    echo.optional_min_face_size_case = FACEWORKER__V1__SESSION_OPTIONS__OPTIONAL_MIN_FACE_SIZE__NOT_SET;
    fake_answer_open(fd, m, 1, &echo);
    faceworker__v1__client_message__free_unpacked(m, NULL);

    while ((m = fake_read(fd)) != NULL) {
        if (m->kind_case == FACEWORKER__V1__CLIENT_MESSAGE__KIND_CLOSE_SESSION)
            answer_close(fd, m);
        else if (m->kind_case == FACEWORKER__V1__CLIENT_MESSAGE__KIND_PING)
            fake_answer_ping(fd, m, m->call_id, false);
        faceworker__v1__client_message__free_unpacked(m, NULL);
    }
}

static void test_wire_session_options(void)
{
    struct options_record rec = {0};
    fake_worker *w;
    fw_client *c = fake_connect(script_cap_options, &rec, &w);
    REQUIRE(c, "fake worker");
    fw_error err;
    fw_session_options o;
    fw_session_options_init(&o);
    o.running_mode = FW_MODE_LIVE_STREAM;
    o.performance_mode = FW_PERFORMANCE_ACCURATE;
    o.landmarks = o.contours = o.classification = true;
    o.tracking_enabled = true;
    o.num_faces = 10;
    o.min_face_size = 0.25f;
    o.min_detection_confidence = 0.0f;
    o.output_face_mesh = true;
    o.detector_interval_frames = 7;
    o.max_missed_frames = 0;
    o.mesh_model = FW_MESH_FACE_LANDMARKER;
    o.output_face_blendshapes = true;
    fw_session *s = fw_open_session(c, &o, &err);
    if (CHECK_AT(s != NULL, "%s", err.message)) {
        fw_session_options got = {0};
        fw_session_get_options(s, &got);
        CHECK(got.num_faces == 3, "the worker's cap is visible: %u", got.num_faces);
        CHECK(got.min_face_size == 0.1f, "unset in the echo reads as the default: %g", got.min_face_size);
        CHECK(got.running_mode == FW_MODE_LIVE_STREAM && got.performance_mode == FW_PERFORMANCE_ACCURATE,
              "modes echoed");
        CHECK(got.landmarks && got.contours && got.classification && got.output_face_mesh, "outputs echoed");
        CHECK(got.max_missed_frames == 0 && got.detector_interval_frames == 7, "tracking echoed");
        CHECK(got.mesh_model == FW_MESH_FACE_LANDMARKER && got.output_face_blendshapes, "mesh model echoed");
        size_t names = 42;
        CHECK(fw_session_blendshape_names(s, &names) == NULL && names == 0,
              "an answer without names gives none: %zu", names);

        fw_result *r = NULL;
        const uint8_t jpeg[] = {0xff, 0xd8};
        CHECK(fw_process_jpeg(s, jpeg, 2, 0, &r, &err) == FW_ERR_USAGE, "fw_process refuses LIVE_STREAM");
        CHECK(contains(err.message, "fw_send"), "and says what to use: %s", err.message);
        fw_frame both = {.jpeg = jpeg, .jpeg_len = 2, .pixels = jpeg, .pixels_len = 2};
        CHECK(fw_send(s, &both, &err) == FW_ERR_USAGE, "jpeg and pixels at once");
        fw_frame neither = {.timestamp_ms = 1};
        CHECK(fw_send(s, &neither, &err) == FW_ERR_USAGE, "neither jpeg nor pixels");
        CHECK(fw_session_pending(s) == 0, "refused frames are not pending");
        CHECK(fw_ping(c, NULL, 4, &err) == FW_ERR_USAGE, "a length without a payload");
        CHECK(fw_ping(c, "ok", 2, &err) == FW_OK, "usage errors leave the client usable: %s", err.message);
        CHECK(fw_close_session(s, &err) == FW_OK, "%s", err.message);
    }
    fake_disconnect(c, w);
    CHECK(rec.all_present, "every optional option is sent as present");
    CHECK(rec.seen.num_faces == 10 && rec.seen.min_face_size == 0.25f, "values sent");
    CHECK(rec.seen.min_detection_confidence == 0.0f, "an explicit 0 is sent");
    CHECK(rec.seen.running_mode == FACEWORKER__V1__RUNNING_MODE__RUNNING_MODE_LIVE_STREAM, "mode sent");
    CHECK(rec.seen.landmark_mode == FACEWORKER__V1__LANDMARK_MODE__LANDMARK_MODE_ALL &&
              rec.seen.contour_mode == FACEWORKER__V1__CONTOUR_MODE__CONTOUR_MODE_ALL &&
              rec.seen.classification_mode == FACEWORKER__V1__CLASSIFICATION_MODE__CLASSIFICATION_MODE_ALL,
          "ML Kit modes sent");
    CHECK(rec.seen.tracking_enabled && rec.seen.output_face_mesh && !rec.seen.output_transformation_matrix,
          "flags sent");
    CHECK(rec.seen.detector_interval_frames == 7 && rec.seen.max_missed_frames == 0, "tracking sent");
    CHECK(rec.seen.mesh_model == FACEWORKER__V1__MESH_MODEL__MESH_MODEL_FACE_LANDMARKER &&
              rec.seen.output_face_blendshapes,
          "mesh model and blendshapes sent");
}

int main(int argc, char **argv)
{
    (void)argv;
    if (argc != 1) {
        fprintf(stderr, "usage: test_results\n");
        return 2;
    }
    RUN(test_wire_worker_error_keeps_session);
    RUN(test_wire_session_options);
    printf("%d passed, %d failed\n", tests_passed, tests_failed);
    return tests_failed == 0 ? 0 : 1;
}
