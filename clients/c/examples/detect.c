/*
 * detect: finds the faces in JPEG files with a running face-worker and
 * prints them.
 *
 *   detect [-s SOCKET] [-a] [-b] IMAGE.jpg...
 *
 *   -s SOCKET  the worker's socket (default: fw_default_socket_path(), which
 *              FACEWORKER_SOCKET sets)
 *   -a         also ML Kit's landmarks, smiling and eyes-open
 *              probabilities, head angles and the iris centres of the
 *              478-point face mesh (runs the face mesh)
 *   -b         also the three strongest of the 52 blendshapes (runs
 *              MediaPipe Tasks' Face Landmarker, which the worker loads from
 *              face_landmarker.task)
 *
 * Build against an installed library with:
 *   cc detect.c $(pkg-config --cflags --libs faceworker) -o detect
 */
#define _POSIX_C_SOURCE 200809L

#include <faceworker.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static uint8_t *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    uint8_t *buf = NULL;
    size_t cap = 0;
    *len = 0;
    for (;;) {
        if (*len == cap) {
            cap = cap ? cap * 2 : 1 << 16;
            uint8_t *grown = realloc(buf, cap);
            if (!grown) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = grown;
        }
        size_t n = fread(buf + *len, 1, cap - *len, f);
        *len += n;
        if (n == 0)
            break;
    }
    bool failed = ferror(f);
    fclose(f);
    if (failed) {
        free(buf);
        return NULL;
    }
    return buf;
}

static const char *const keypoint_names[] = {
    "right eye", "left eye", "nose tip", "mouth centre", "right ear tragion", "left ear tragion",
};

static const char *const landmark_names[] = {
    "mouth bottom", "mouth left", "mouth right", "left eye",   "right eye",
    "left ear",     "right ear",  "left cheek",  "right cheek", "nose base",
};

/* The face's three highest blendshape scores, by the names the session holds. */
static void print_blendshapes(const fw_face *f, const fw_session *session)
{
    size_t count, named;
    const float *scores = fw_face_blendshapes(f, &count);
    const char *const *names = fw_session_blendshape_names(session, &named);
    if (count == 0 || count != named)
        return;
    bool shown[FW_BLENDSHAPE_COUNT] = {false};
    for (int rank = 0; rank < 3; rank++) {
        size_t best = count;
        for (size_t i = 0; i < count && i < FW_BLENDSHAPE_COUNT; i++)
            if (!shown[i] && (best == count || scores[i] > scores[best]))
                best = i;
        if (best == count)
            return;
        shown[best] = true;
        printf("    blendshape     %-18s %.2f\n", names[best], scores[best]);
    }
}

static void print_face(size_t i, const fw_face *f, const fw_session *session, uint32_t width, uint32_t height)
{
    fw_box b = fw_face_box(f);
    printf("  face %zu: box x %.1f y %.1f w %.1f h %.1f, score %.3f\n", i, b.x, b.y, b.width, b.height,
           fw_face_score(f));
    for (int k = FW_KEYPOINT_RIGHT_EYE; k <= FW_KEYPOINT_LEFT_EAR_TRAGION; k++) {
        fw_point p;
        if (fw_face_keypoint(f, (fw_keypoint_type)k, &p, NULL))
            printf("    %-18s (%.1f, %.1f)\n", keypoint_names[k - 1], p.x, p.y);
    }
    for (int k = FW_LANDMARK_MOUTH_BOTTOM; k <= FW_LANDMARK_NOSE_BASE; k++) {
        fw_point p;
        if (fw_face_landmark(f, (fw_landmark_type)k, &p))
            printf("    landmark %-12s (%.1f, %.1f)\n", landmark_names[k - 1], p.x, p.y);
    }
    float v;
    if (fw_face_head_euler_angle_x(f, &v))
        printf("    head pitch (x) %.1f deg\n", v);
    if (fw_face_head_euler_angle_y(f, &v))
        printf("    head yaw (y)   %.1f deg\n", v);
    if (fw_face_head_euler_angle_z(f, &v))
        printf("    head roll (z)  %.1f deg\n", v);
    if (fw_face_smiling_probability(f, &v))
        printf("    smiling        %.2f\n", v);
    if (fw_face_left_eye_open_probability(f, &v))
        printf("    left eye open  %.2f\n", v);
    if (fw_face_right_eye_open_probability(f, &v))
        printf("    right eye open %.2f\n", v);
    /* The mesh stays inside the result: x, y, z of each point in a row. */
    size_t points;
    const float *mesh = fw_face_mesh_xyz(f, &points);
    if (points == 478) {
        const float *right = mesh + 3 * 468, *left = mesh + 3 * 473;
        printf("    iris centres   right (%.1f, %.1f), left (%.1f, %.1f) of %zu mesh points\n", right[0] * width,
               right[1] * height, left[0] * width, left[1] * height, points);
    }
    print_blendshapes(f, session);
}

int main(int argc, char **argv)
{
    const char *socket_path = NULL;
    bool all = false, blendshapes = false;
    int opt;
    while ((opt = getopt(argc, argv, "s:ab")) != -1) {
        if (opt == 's')
            socket_path = optarg;
        else if (opt == 'a')
            all = true;
        else if (opt == 'b')
            blendshapes = true;
        else
            optind = argc + 1;
    }
    if (optind >= argc) {
        fprintf(stderr, "usage: %s [-s SOCKET] [-a] [-b] IMAGE.jpg...\n", argv[0]);
        return 2;
    }

    fw_error err;
    fw_client *client = fw_connect(socket_path, &err);
    if (!client) {
        fprintf(stderr, "detect: %s\n", err.message);
        return 1;
    }
    fw_session_options options;
    fw_session_options_init(&options);
    options.num_faces = 10;
    options.landmarks = options.classification = options.output_face_mesh = all;
    if (blendshapes) {
        options.mesh_model = FW_MESH_FACE_LANDMARKER;
        options.output_face_blendshapes = true;
    }
    fw_session *session = fw_open_session(client, &options, &err);
    if (!session) {
        fprintf(stderr, "detect: opening a session: %s: %s\n", fw_status_name(err.code), err.message);
        fw_close(client);
        return 1;
    }

    int status = 0;
    for (int i = optind; i < argc; i++) {
        size_t len;
        uint8_t *jpeg = read_file(argv[i], &len);
        if (!jpeg) {
            fprintf(stderr, "detect: cannot read %s\n", argv[i]);
            status = 1;
            continue;
        }
        fw_result *result;
        int rc = fw_process_jpeg(session, jpeg, len, 0, &result, &err);
        free(jpeg);
        if (rc != FW_OK) {
            fprintf(stderr, "detect: %s: %s: %s\n", argv[i], fw_status_name(rc), err.message);
            status = 1;
            if (rc == FW_ERR_IO || rc == FW_ERR_CLOSED || rc == FW_ERR_PROTOCOL)
                break; /* the connection is gone */
            continue;
        }
        size_t n = fw_result_face_count(result);
        printf("%s: %ux%u, %zu face%s (worker %.1f ms)\n", argv[i], fw_result_image_width(result),
               fw_result_image_height(result), n, n == 1 ? "" : "s", fw_result_timings(result).total_us / 1e3);
        for (size_t k = 0; k < n; k++)
            print_face(k, fw_result_face(result, k), session, fw_result_image_width(result),
                       fw_result_image_height(result));
        fw_result_free(result);
    }
    fw_close(client);
    return status;
}
