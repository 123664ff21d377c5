#include "support.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <turbojpeg.h>

const size_t contour_sizes[15] = {36, 5, 5, 5, 5, 16, 16, 11, 9, 9, 9, 2, 3, 1, 1};

bool contains(const char *haystack, const char *needle)
{
    return strstr(haystack, needle) != NULL;
}

fw_client *connect_worker(const char *path)
{
    fw_error err;
    fw_client *c = fw_connect(path, &err);
    if (!c)
        fprintf(stderr, "    fw_connect: %s\n", err.message);
    else
        fw_set_timeout(c, WORKER_TIMEOUT_MS);
    return c;
}

uint8_t *read_fixture(const char *dir, const char *name, size_t *len)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "    cannot open %s: %s\n", path, strerror(errno));
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *buf = malloc(size > 0 ? (size_t)size : 1);
    if (buf && fread(buf, 1, (size_t)size, f) != (size_t)size) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    *len = (size_t)size;
    return buf;
}

uint8_t *decode_rgb(const uint8_t *jpeg, size_t len, int *w, int *h)
{
    tjhandle tj = tjInitDecompress();
    if (!tj)
        return NULL;
    int subsamp, colorspace;
    uint8_t *rgb = NULL;
    if (tjDecompressHeader3(tj, jpeg, (unsigned long)len, w, h, &subsamp, &colorspace) == 0) {
        rgb = malloc((size_t)*w * (size_t)*h * 3);
        if (rgb && tjDecompress2(tj, jpeg, (unsigned long)len, rgb, *w, 0, *h, TJPF_RGB, 0) != 0) {
            free(rgb);
            rgb = NULL;
        }
    }
    tjDestroy(tj);
    return rgb;
}

bool parse_test_arguments(int argc, char **argv, const char **fixtures, const char **socket)
{
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--fixtures") == 0)
            *fixtures = argv[i + 1];
        else if (strcmp(argv[i], "--socket") == 0)
            *socket = argv[i + 1];
    }
    if (!*fixtures)
        fprintf(stderr, "usage: %s --fixtures DIR [--socket PATH]\n", argv[0]);
    return *fixtures != NULL;
}

fw_session *open_session_in(fw_client *c, fw_running_mode mode, bool tracking)
{
    fw_session_options o;
    fw_session_options_init(&o);
    o.running_mode = mode;
    o.tracking_enabled = tracking;
    fw_error err;
    fw_session *s = fw_open_session(c, &o, &err);
    if (!s)
        fprintf(stderr, "    fw_open_session: %s %s\n", fw_status_name(err.code), err.message);
    return s;
}
