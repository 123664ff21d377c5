/*
 * Session options: their defaults, and their form on the wire. The
 * defaults are those of proto/faceworker/v1/defaults.json, which the tests
 * check this file against; the worker checks the ranges.
 */
#include "internal.h"

#include <string.h>

void fw_session_options_init(fw_session_options *o)
{
    *o = (fw_session_options){
        .size = sizeof(fw_session_options),
        .running_mode = FW_MODE_IMAGE,
        .performance_mode = FW_PERFORMANCE_FAST,
        .min_face_size = 0.1f,
        .min_detection_confidence = 0.5f,
        .min_suppression_threshold = 0.3f,
        .num_faces = 1,
        .min_face_presence_confidence = 0.5f,
        .min_tracking_confidence = 0.5f,
        .detector_interval_frames = 5,
        .max_missed_frames = 3,
        .mesh_model = FW_MESH_ATTENTION_MESH,
    };
}

void fwi_options_to_proto(const fw_session_options *o, Faceworker__V1__SessionOptions *p)
{
    p->running_mode = (Faceworker__V1__RunningMode)o->running_mode;
    p->performance_mode = (Faceworker__V1__PerformanceMode)o->performance_mode;
    p->landmark_mode = o->landmarks ? FACEWORKER__V1__LANDMARK_MODE__LANDMARK_MODE_ALL
                                    : FACEWORKER__V1__LANDMARK_MODE__LANDMARK_MODE_NONE;
    p->contour_mode = o->contours ? FACEWORKER__V1__CONTOUR_MODE__CONTOUR_MODE_ALL
                                  : FACEWORKER__V1__CONTOUR_MODE__CONTOUR_MODE_NONE;
    p->classification_mode = o->classification ? FACEWORKER__V1__CLASSIFICATION_MODE__CLASSIFICATION_MODE_ALL
                                               : FACEWORKER__V1__CLASSIFICATION_MODE__CLASSIFICATION_MODE_NONE;
    p->tracking_enabled = o->tracking_enabled;
    p->output_face_mesh = o->output_face_mesh;
    p->output_transformation_matrix = o->output_transformation_matrix;
    p->refuse_damaged_jpeg = o->refuse_damaged_jpeg;
    p->mesh_model = (Faceworker__V1__MeshModel)o->mesh_model;
    p->output_face_blendshapes = o->output_face_blendshapes;
    p->detector_interval_frames = o->detector_interval_frames;
    p->min_face_size = o->min_face_size;
    p->min_detection_confidence = o->min_detection_confidence;
    p->min_suppression_threshold = o->min_suppression_threshold;
    p->num_faces = o->num_faces;
    p->min_face_presence_confidence = o->min_face_presence_confidence;
    p->min_tracking_confidence = o->min_tracking_confidence;
    p->max_missed_frames = o->max_missed_frames;
    /* Every optional field is an `optional` of the .proto, a oneof of one
     * field: present when its case holds the field's number. */
    const ProtobufCMessageDescriptor *d = &faceworker__v1__session_options__descriptor;
    for (unsigned i = 0; i < d->n_fields; i++)
        if (d->fields[i].flags & PROTOBUF_C_FIELD_FLAG_ONEOF)
            *(uint32_t *)(void *)((char *)p + d->fields[i].quantifier_offset) = d->fields[i].id;
}

/* A field the worker left unset keeps the default fw_session_options_init()
 * gave it. */
#define TAKE_IF_SET(field)                                                                                   \
    do {                                                                                                     \
        if (p->optional_##field##_case)                                                                      \
            o->field = p->field;                                                                             \
    } while (0)

void fwi_options_from_proto(const Faceworker__V1__SessionOptions *p, fw_session_options *o)
{
    fw_session_options_init(o);
    o->running_mode = (fw_running_mode)p->running_mode;
    o->performance_mode = (fw_performance_mode)p->performance_mode;
    o->landmarks = p->landmark_mode == FACEWORKER__V1__LANDMARK_MODE__LANDMARK_MODE_ALL;
    o->contours = p->contour_mode == FACEWORKER__V1__CONTOUR_MODE__CONTOUR_MODE_ALL;
    o->classification = p->classification_mode == FACEWORKER__V1__CLASSIFICATION_MODE__CLASSIFICATION_MODE_ALL;
    o->tracking_enabled = p->tracking_enabled;
    o->output_face_mesh = p->output_face_mesh;
    o->output_transformation_matrix = p->output_transformation_matrix;
    o->refuse_damaged_jpeg = p->refuse_damaged_jpeg;
    if (p->mesh_model != FACEWORKER__V1__MESH_MODEL__MESH_MODEL_UNSPECIFIED) /* unset: the default */
        o->mesh_model = (fw_mesh_model)p->mesh_model;
    o->output_face_blendshapes = p->output_face_blendshapes;
    if (p->detector_interval_frames != 0) /* 0 stands for the default */
        o->detector_interval_frames = p->detector_interval_frames;
    TAKE_IF_SET(min_face_size);
    TAKE_IF_SET(min_detection_confidence);
    TAKE_IF_SET(min_suppression_threshold);
    TAKE_IF_SET(num_faces);
    TAKE_IF_SET(min_face_presence_confidence);
    TAKE_IF_SET(min_tracking_confidence);
    TAKE_IF_SET(max_missed_frames);
}

int fwi_take_options(const fw_session_options *in, fw_session_options *out, fw_error *err)
{
    size_t covered = FWI_OPTIONS_COVERED(in->size);
    if (covered == 0)
        return fwi_set_error(err, FW_ERR_USAGE, 0,
                             "fw_session_options.size is %zu, which no version has; fill the options with "
                             "fw_session_options_init",
                             in->size);
    fw_session_options_init(out);
    memcpy(out, in, covered);
    out->size = sizeof *out;
    return FW_OK;
}

void fwi_give_options(const fw_session_options *options, fw_session_options *out)
{
    size_t size = out->size;
    size_t covered = FWI_OPTIONS_COVERED(size);
    memcpy(out, options, covered);
    out->size = size;
}
