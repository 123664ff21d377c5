/*
 * Frames for face-bench: JPEG files from a directory, or a synthetic
 * 640x360 sequence panned and zoomed across one JPEG photograph.
 */
#ifndef FACE_BENCH_FRAMES_H
#define FACE_BENCH_FRAMES_H

#include <stddef.h>
#include <stdint.h>

typedef struct bench_frame {
    uint8_t *jpeg;
    size_t len;
} bench_frame;

typedef struct bench_frames {
    bench_frame *frames;
    size_t count;
    int width, height; /* of the first frame */
} bench_frames;

/* Every *.jpg and *.jpeg file in dir, in name order. Returns 0, or -1 with
 * a message in err. */
int frames_from_directory(const char *dir, bench_frames *out, char *err, size_t err_size);

/* `count` 640x360 JPEG frames (quality 85, 4:2:0, as a camera would send)
 * cut from the photograph in source_jpeg: the view pans and zooms in a
 * loop, so consecutive frames differ as a slow video's do. Returns 0, or -1
 * with a message in err. */
int frames_synthesize(const char *source_jpeg, size_t count, bench_frames *out, char *err, size_t err_size);

void frames_free(bench_frames *frames);

#endif
