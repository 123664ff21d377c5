#include "frames.h"

#include <dirent.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <turbojpeg.h>

#define OUT_WIDTH 640
#define OUT_HEIGHT 360
#define QUALITY 85
#define PI 3.14159265358979323846

static int fail(char *err, size_t err_size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, err_size, fmt, ap);
    va_end(ap);
    return -1;
}

void frames_free(bench_frames *f)
{
    for (size_t i = 0; i < f->count; i++)
        free(f->frames[i].jpeg);
    free(f->frames);
    f->frames = NULL;
    f->count = 0;
}

static int read_file(const char *path, bench_frame *out)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    int rc = -1;
    if (fseek(f, 0, SEEK_END) == 0) {
        long size = ftell(f);
        if (size > 0 && fseek(f, 0, SEEK_SET) == 0) {
            out->jpeg = malloc((size_t)size);
            out->len = (size_t)size;
            if (out->jpeg && fread(out->jpeg, 1, out->len, f) == out->len)
                rc = 0;
            else {
                free(out->jpeg);
                out->jpeg = NULL;
            }
        }
    }
    fclose(f);
    return rc;
}

static int is_jpeg_name(const char *name)
{
    const char *dot = strrchr(name, '.');
    return dot && (strcmp(dot, ".jpg") == 0 || strcmp(dot, ".jpeg") == 0 || strcmp(dot, ".JPG") == 0 ||
                   strcmp(dot, ".JPEG") == 0);
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void jpeg_size(const bench_frame *frame, int *width, int *height)
{
    tjhandle tj = tjInitDecompress();
    int subsamp, colorspace;
    if (!tj || tjDecompressHeader3(tj, frame->jpeg, (unsigned long)frame->len, width, height, &subsamp,
                                   &colorspace) != 0)
        *width = *height = 0;
    if (tj)
        tjDestroy(tj);
}

int frames_from_directory(const char *dir, bench_frames *out, char *err, size_t err_size)
{
    memset(out, 0, sizeof *out);
    DIR *d = opendir(dir);
    if (!d)
        return fail(err, err_size, "cannot open directory %s", dir);
    char **names = NULL;
    size_t count = 0, cap = 0;
    int rc = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (!is_jpeg_name(e->d_name))
            continue;
        if (count == cap) {
            cap = cap ? cap * 2 : 64;
            char **grown = realloc(names, cap * sizeof *names);
            if (!grown) {
                rc = fail(err, err_size, "out of memory");
                break;
            }
            names = grown;
        }
        if (!(names[count] = strdup(e->d_name))) {
            rc = fail(err, err_size, "out of memory");
            break;
        }
        count++;
    }
    closedir(d);
    if (rc == 0 && count == 0)
        rc = fail(err, err_size, "no .jpg or .jpeg files in %s", dir);
    if (rc == 0 && !(out->frames = calloc(count, sizeof *out->frames)))
        rc = fail(err, err_size, "out of memory");
    if (rc == 0) {
        qsort(names, count, sizeof *names, compare_names);
        for (size_t i = 0; i < count && rc == 0; i++) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", dir, names[i]);
            if (read_file(path, &out->frames[i]) != 0)
                rc = fail(err, err_size, "cannot read %s", path);
            else
                out->count++;
        }
    }
    for (size_t i = 0; i < count; i++)
        free(names[i]);
    free(names);
    if (rc != 0) {
        frames_free(out);
        return rc;
    }
    jpeg_size(&out->frames[0], &out->width, &out->height);
    return 0;
}

static int clamp_index(int i, int size)
{
    return i < 0 ? 0 : i >= size ? size - 1 : i;
}

/* Where output pixel i of n falls on a source axis of `size` pixels whose
 * window [start, start + span) the output covers: the two pixels around it,
 * clamped to the edge, and the weight of the second. */
struct taps {
    int a, b;
    double weight;
};

static struct taps taps_at(int i, int n, double start, double span, int size)
{
    double at = start + (i + 0.5) * span / n - 0.5;
    int k = (int)floor(at);
    return (struct taps){clamp_index(k, size), clamp_index(k + 1, size), at - k};
}

/* Samples the window (x0, y0, w, h) of the RGB source into a 640x360 RGB
 * frame, bilinearly. */
static void render(const uint8_t *src, int sw, int sh, double x0, double y0, double w, double h, uint8_t *dst)
{
    for (int oy = 0; oy < OUT_HEIGHT; oy++) {
        struct taps ty = taps_at(oy, OUT_HEIGHT, y0, h, sh);
        int ya = ty.a, yb = ty.b;
        double fy = ty.weight;
        for (int ox = 0; ox < OUT_WIDTH; ox++) {
            struct taps tx = taps_at(ox, OUT_WIDTH, x0, w, sw);
            int xa = tx.a, xb = tx.b;
            double fx = tx.weight;
            const uint8_t *p00 = src + ((size_t)ya * sw + xa) * 3, *p01 = src + ((size_t)ya * sw + xb) * 3;
            const uint8_t *p10 = src + ((size_t)yb * sw + xa) * 3, *p11 = src + ((size_t)yb * sw + xb) * 3;
            uint8_t *o = dst + ((size_t)oy * OUT_WIDTH + ox) * 3;
            for (int c = 0; c < 3; c++) {
                double top = p00[c] + (p01[c] - p00[c]) * fx;
                double bottom = p10[c] + (p11[c] - p10[c]) * fx;
                o[c] = (uint8_t)(top + (bottom - top) * fy + 0.5);
            }
        }
    }
}

static double clamp(double v, double lo, double hi)
{
    return v < lo ? lo : (v > hi ? hi : v);
}

int frames_synthesize(const char *source_jpeg, size_t count, bench_frames *out, char *err, size_t err_size)
{
    memset(out, 0, sizeof *out);
    bench_frame source = {0};
    if (read_file(source_jpeg, &source) != 0)
        return fail(err, err_size, "cannot read %s", source_jpeg);
    tjhandle dec = tjInitDecompress(), enc = tjInitCompress();
    uint8_t *rgb = NULL, *frame = malloc((size_t)OUT_WIDTH * OUT_HEIGHT * 3);
    int rc = 0, sw = 0, sh = 0, subsamp, colorspace;
    if (!dec || !enc || !frame)
        rc = fail(err, err_size, "cannot set up TurboJPEG");
    else if (tjDecompressHeader3(dec, source.jpeg, (unsigned long)source.len, &sw, &sh, &subsamp, &colorspace) != 0)
        rc = fail(err, err_size, "%s: %s", source_jpeg, tjGetErrorStr2(dec));
    else if (!(rgb = malloc((size_t)sw * sh * 3)))
        rc = fail(err, err_size, "out of memory");
    else if (tjDecompress2(dec, source.jpeg, (unsigned long)source.len, rgb, sw, 0, sh, TJPF_RGB, 0) != 0)
        rc = fail(err, err_size, "%s: %s", source_jpeg, tjGetErrorStr2(dec));
    else if (!(out->frames = calloc(count, sizeof *out->frames)))
        rc = fail(err, err_size, "out of memory");

    /* The widest 16:9 window of the photograph, zoomed in by up to 1.3x and
     * panned around its upper middle, where portraits have the face. */
    double base_w = sw < sh * 16.0 / 9.0 ? sw : sh * 16.0 / 9.0;
    for (size_t k = 0; rc == 0 && k < count; k++) {
        double t = 2 * PI * (double)k / (double)count;
        double zoom = 1 + 0.15 * (1 - cos(t));
        double w = base_w / zoom, h = w * 9.0 / 16.0;
        double cx = clamp(sw / 2.0 + 0.3 * (sw - w) * sin(t), w / 2, sw - w / 2);
        double cy = clamp(sh * 0.4 + sh * 0.05 * cos(t), h / 2, sh - h / 2);
        render(rgb, sw, sh, cx - w / 2, cy - h / 2, w, h, frame);
        unsigned char *jpeg = NULL;
        unsigned long len = 0;
        if (tjCompress2(enc, frame, OUT_WIDTH, 0, OUT_HEIGHT, TJPF_RGB, &jpeg, &len, TJSAMP_420, QUALITY, 0) != 0) {
            rc = fail(err, err_size, "encoding a frame: %s", tjGetErrorStr2(enc));
            break;
        }
        out->frames[k].jpeg = malloc(len);
        if (!out->frames[k].jpeg) {
            tjFree(jpeg);
            rc = fail(err, err_size, "out of memory");
            break;
        }
        memcpy(out->frames[k].jpeg, jpeg, len);
        out->frames[k].len = len;
        out->count++;
        tjFree(jpeg);
    }
    out->width = OUT_WIDTH;
    out->height = OUT_HEIGHT;
    if (dec)
        tjDestroy(dec);
    if (enc)
        tjDestroy(enc);
    free(rgb);
    free(frame);
    free(source.jpeg);
    if (rc != 0)
        frames_free(out);
    return rc;
}
