/*
 * What the test programs share besides the fake worker and the harness.
 */
#ifndef FW_TEST_SUPPORT_H
#define FW_TEST_SUPPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "faceworker.h"

/* Long enough for a debug worker, and for 64 MiB under valgrind; short
 * enough that a hung call fails its test instead of the whole run. */
#define WORKER_TIMEOUT_MS 60000

/* The points of ML Kit's 15 contours, in fw_contour_type order. */
extern const size_t contour_sizes[15];

bool contains(const char *haystack, const char *needle);

/* Opens a session in `mode`, tracking or not, with the other options'
 * defaults; NULL, with the reason on stderr, if the worker refuses. */
fw_session *open_session_in(fw_client *c, fw_running_mode mode, bool tracking);

/* Connects to the worker at path with WORKER_TIMEOUT_MS on every call;
 * NULL, with the reason on stderr, if none answers there. */
fw_client *connect_worker(const char *path);

/* The bytes of dir/name, malloc'd; NULL, with the reason on stderr, if it
 * cannot be read. */
uint8_t *read_fixture(const char *dir, const char *name, size_t *len);

/* The JPEG decoded to packed RGB by TurboJPEG, malloc'd, its size in *w and
 * *h; NULL if it cannot be decoded. */
/* Reads --fixtures DIR (required) and --socket PATH (optional) into *fixtures
 * and *socket; false, with the usage on stderr, without --fixtures. */
bool parse_test_arguments(int argc, char **argv, const char **fixtures, const char **socket);

uint8_t *decode_rgb(const uint8_t *jpeg, size_t len, int *w, int *h);

#endif
