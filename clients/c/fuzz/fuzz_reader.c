/*
 * libFuzzer target: the I/O-free reader (src/wire.h) on whatever bytes a
 * socket could deliver, in pieces of varying size. The input's first byte
 * seeds where the stream is cut; the rest is the stream. Every message the
 * reader yields is freed; an error must leave the reader refusing, never
 * reading outside what it was fed.
 */
#include <stddef.h>
#include <stdint.h>

#include "wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    size_t chunk = (size_t)data[0] + 1;
    data++;
    size--;
    fwi_reader r;
    /* A small limit, so the fuzzer reaches both sides of it. */
    fwi_reader_init(&r, 1u << 16);
    size_t fed = 0;
    int broken = 0;
    while (fed < size && !broken) {
        size_t n = size - fed < chunk ? size - fed : chunk;
        fw_error err;
        if (fwi_reader_feed(&r, data + fed, n, &err) != FW_OK)
            break;
        fed += n;
        chunk = chunk * 3 % 251 + 1;
        for (;;) {
            WorkerMessage *m = NULL;
            if (fwi_reader_next(&r, &m, &err) != FW_OK) {
                broken = 1;
                break;
            }
            if (!m)
                break;
            faceworker__v1__worker_message__free_unpacked(m, NULL);
        }
    }
    size_t expected;
    (void)fwi_reader_unparsed(&r, &expected);
    fwi_reader_free(&r);
    return 0;
}
