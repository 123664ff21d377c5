#include "support.h"

#include <stdio.h>
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
