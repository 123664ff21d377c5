/*
 * Results: a result is the worker's WorkerMessage itself (a frame's answer
 * or a subscription's event), and a face its Face, so reading a field
 * costs no copy and freeing a result is one call. Once the result is the
 * caller's, its call_id, of no more use, holds whether it is its session's
 * first since fw_reconnect() (1) or not (0).
 */
#include "internal.h"

#include <string.h>

/* A result is the answer to a frame, or a subscription's event. */
static const Faceworker__V1__FrameResult *frame_of(const fw_result *r)
{
    const WorkerMessage *m = (const WorkerMessage *)(const void *)r;
    return m->kind_case == FACEWORKER__V1__WORKER_MESSAGE__KIND_SESSION_EVENT ? m->session_event->frame_result
                                                                               : m->frame_result;
}

static const Faceworker__V1__Face *face_of(const fw_face *f)
{
    return (const Faceworker__V1__Face *)(const void *)f;
}

fw_result *fwi_hand_out_result(fw_session *s, WorkerMessage *m)
{
    /* An answer to a call sent before the cut is the old session's, even if read after. */
    bool first = s && s->restarted && m->call_id >= s->restarted_from;
    if (first)
        s->restarted = false;
    m->call_id = first ? 1 : 0;
    return (fw_result *)(void *)m;
}

bool fw_result_session_restarted(const fw_result *r)
{
    return ((const WorkerMessage *)(const void *)r)->call_id == 1;
}

void fw_result_free(fw_result *r)
{
    if (r)
        faceworker__v1__worker_message__free_unpacked((WorkerMessage *)(void *)r, NULL);
}

int64_t fw_result_timestamp(const fw_result *r)
{
    return frame_of(r)->timestamp_ms;
}

uint32_t fw_result_image_width(const fw_result *r)
{
    return frame_of(r)->image_width;
}

uint32_t fw_result_image_height(const fw_result *r)
{
    return frame_of(r)->image_height;
}

bool fw_result_detector_ran(const fw_result *r)
{
    return frame_of(r)->detector_ran;
}

fw_timings fw_result_timings(const fw_result *r)
{
    const Faceworker__V1__StageTimings *t = frame_of(r)->timings;
    if (!t)
        return (fw_timings){0};
    return (fw_timings){
        .received_unix_us = t->received_unix_us,
        .queued_us = t->queued_us,
        .decode_us = t->decode_us,
        .detect_us = t->detect_us,
        .landmarks_us = t->landmarks_us,
        .total_us = t->total_us,
    };
}

size_t fw_result_warning_count(const fw_result *r)
{
    return frame_of(r)->n_warnings;
}

const char *fw_result_warning(const fw_result *r, size_t i)
{
    const Faceworker__V1__FrameResult *fr = frame_of(r);
    return i < fr->n_warnings ? fr->warnings[i] : NULL;
}

size_t fw_result_face_count(const fw_result *r)
{
    return frame_of(r)->n_faces;
}

const fw_face *fw_result_face(const fw_result *r, size_t i)
{
    const Faceworker__V1__FrameResult *fr = frame_of(r);
    return i < fr->n_faces ? (const fw_face *)(const void *)fr->faces[i] : NULL;
}

fw_box fw_face_box(const fw_face *f)
{
    const Faceworker__V1__BoundingBox *b = face_of(f)->bounding_box;
    return b ? (fw_box){b->x, b->y, b->width, b->height} : (fw_box){0};
}

float fw_face_score(const fw_face *f)
{
    return face_of(f)->score;
}

static fw_point point_of(const Faceworker__V1__Point *p)
{
    return p ? (fw_point){p->x, p->y} : (fw_point){0};
}

bool fw_face_keypoint(const fw_face *f, fw_keypoint_type type, fw_point *position, fw_point *normalized)
{
    const Faceworker__V1__Face *face = face_of(f);
    for (size_t i = 0; i < face->n_keypoints; i++) {
        const Faceworker__V1__Keypoint *k = face->keypoints[i];
        if ((int)k->type != (int)type)
            continue;
        if (position)
            *position = point_of(k->position);
        if (normalized)
            *normalized = point_of(k->normalized);
        return true;
    }
    return false;
}

size_t fw_face_landmark_count(const fw_face *f)
{
    return face_of(f)->n_landmarks;
}

bool fw_face_landmark(const fw_face *f, fw_landmark_type type, fw_point *position)
{
    const Faceworker__V1__Face *face = face_of(f);
    for (size_t i = 0; i < face->n_landmarks; i++) {
        if ((int)face->landmarks[i]->type == (int)type) {
            if (position)
                *position = point_of(face->landmarks[i]->position);
            return true;
        }
    }
    return false;
}

size_t fw_face_contour_count(const fw_face *f)
{
    return face_of(f)->n_contours;
}

size_t fw_face_contour(const fw_face *f, fw_contour_type type, fw_point *out, size_t cap)
{
    const Faceworker__V1__Face *face = face_of(f);
    for (size_t i = 0; i < face->n_contours; i++) {
        const Faceworker__V1__Contour *contour = face->contours[i];
        if ((int)contour->type != (int)type)
            continue;
        /* A trailing partial point (never sent by the worker) is not a point. */
        size_t points = contour->n_points_xy / 2;
        for (size_t j = 0; j < points && j < cap; j++)
            out[j] = (fw_point){contour->points_xy[2 * j], contour->points_xy[2 * j + 1]};
        return points;
    }
    return 0;
}

const float *fw_face_mesh_xyz(const fw_face *f, size_t *points)
{
    const Faceworker__V1__Face *face = face_of(f);
    /* A trailing partial point (never sent by the worker) is not a point. */
    *points = face->n_mesh_xyz / 3;
    return *points ? face->mesh_xyz : NULL;
}

size_t fw_face_mesh(const fw_face *f, fw_point3 *out, size_t cap)
{
    size_t points;
    const float *xyz = fw_face_mesh_xyz(f, &points);
    for (size_t i = 0; i < points && i < cap; i++)
        out[i] = (fw_point3){xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2]};
    return points;
}

const float *fw_face_blendshapes(const fw_face *f, size_t *count)
{
    const Faceworker__V1__Face *face = face_of(f);
    *count = face->n_blendshapes;
    return face->n_blendshapes ? face->blendshapes : NULL;
}

bool fw_face_transformation_matrix(const fw_face *f, float out[16])
{
    const Faceworker__V1__Face *face = face_of(f);
    if (face->n_transformation_matrix != 16)
        return false;
    memcpy(out, face->transformation_matrix, 16 * sizeof(float));
    return true;
}

/* An optional float of the face: copied to *out when present. */
static bool take_float(bool present, float value, float *out)
{
    if (present)
        *out = value;
    return present;
}

bool fw_face_head_euler_angle_x(const fw_face *f, float *out)
{
    return take_float(face_of(f)->optional_head_euler_angle_x_case, face_of(f)->head_euler_angle_x, out);
}

bool fw_face_head_euler_angle_y(const fw_face *f, float *out)
{
    return take_float(face_of(f)->optional_head_euler_angle_y_case, face_of(f)->head_euler_angle_y, out);
}

bool fw_face_head_euler_angle_z(const fw_face *f, float *out)
{
    return take_float(face_of(f)->optional_head_euler_angle_z_case, face_of(f)->head_euler_angle_z, out);
}

bool fw_face_smiling_probability(const fw_face *f, float *out)
{
    return take_float(face_of(f)->optional_smiling_probability_case, face_of(f)->smiling_probability, out);
}

bool fw_face_left_eye_open_probability(const fw_face *f, float *out)
{
    return take_float(face_of(f)->optional_left_eye_open_probability_case, face_of(f)->left_eye_open_probability,
                      out);
}

bool fw_face_right_eye_open_probability(const fw_face *f, float *out)
{
    return take_float(face_of(f)->optional_right_eye_open_probability_case, face_of(f)->right_eye_open_probability,
                      out);
}

bool fw_face_presence_score(const fw_face *f, float *out)
{
    return take_float(face_of(f)->optional_presence_score_case, face_of(f)->presence_score, out);
}

bool fw_face_tracking_id(const fw_face *f, int32_t *out)
{
    const Faceworker__V1__Face *face = face_of(f);
    if (face->optional_tracking_id_case)
        *out = face->tracking_id;
    return face->optional_tracking_id_case;
}
