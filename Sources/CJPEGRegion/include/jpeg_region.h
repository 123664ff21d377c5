#ifndef FACEWORKER_JPEG_REGION_H
#define FACEWORKER_JPEG_REGION_H

#include <stddef.h>

/// How decoding part of a JPEG ended.
typedef enum {
    /// The part's rows are written and libjpeg met no damage on the way.
    FW_JPEG_PART_DECODED = 0,
    /// Not a single-scan Huffman JPEG in YCbCr or grey: decode it whole.
    FW_JPEG_PART_UNSUITED = 1,
    /// libjpeg warned or failed: decode it whole, which reports the damage as usual.
    FW_JPEG_PART_DAMAGED = 2,
} fw_jpeg_part_status;

/// The part of a stored JPEG image to decode: rows `first_row ..< end_row`,
/// columns `first_column ..< end_column`.
typedef struct {
    int first_row;
    int end_row;
    /// On return, widened to the iMCU column libjpeg starts its output at.
    int first_column;
    /// On return, widened to the column libjpeg ends its output at.
    int end_column;
    /// Nonzero to read the compressed data to its end after the part's rows, so
    /// that damage anywhere in the image is seen, as a whole decode sees it.
    int read_to_end;
} fw_jpeg_part;

/// Decodes `part` of the JPEG in `jpeg` to packed 8-bit RGB, the part's first
/// row at `out` and each next one `row_stride` bytes further, the columns from
/// the widened `first_column` on. The pixels are those a whole decode with
/// TurboJPEG's defaults (accurate integer DCT, smooth chroma upsampling) gives
/// at the same places, except in the last column of a part that stops before
/// the image's right edge, whose chroma libjpeg takes from that column alone.
///
/// The rows before the part are entropy-decoded and dropped, which is the
/// unavoidable cost of a sequential JPEG; the columns outside it are neither
/// transformed nor colour-converted. Nothing is written outside the part's rows
/// and widened columns. `out` must hold them. The part must lie inside the
/// image, whose size the caller read from the header.
fw_jpeg_part_status fw_jpeg_decode_part(const unsigned char *jpeg, size_t size, fw_jpeg_part *part,
                                        unsigned char *out, size_t row_stride);

#endif
