#include "support.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
