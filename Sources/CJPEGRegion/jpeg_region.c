#include "jpeg_region.h"

#include <setjmp.h>
#include <stdio.h>
#include <jpeglib.h>

// libjpeg reports a fatal error by calling error_exit, which must not return:
// it jumps back to fw_jpeg_decode_part, which frees the decompressor.
typedef struct {
    struct jpeg_error_mgr manager;
    jmp_buf exit;
} part_errors;

static void leave(j_common_ptr info) {
    longjmp(((part_errors *)info->err)->exit, 1);
}

// Warnings are counted by libjpeg (num_warnings), never printed.
static void silent(j_common_ptr info) {
    (void)info;
}

static int suited(const struct jpeg_decompress_struct *info) {
    if (info->progressive_mode || info->arith_code || jpeg_has_multiple_scans((j_decompress_ptr)info)) return 0;
    return (info->jpeg_color_space == JCS_YCbCr && info->num_components == 3)
        || (info->jpeg_color_space == JCS_GRAYSCALE && info->num_components == 1);
}

fw_jpeg_part_status fw_jpeg_decode_part(const unsigned char *jpeg, size_t size, fw_jpeg_part *part,
                                        unsigned char *out, size_t row_stride) {
    struct jpeg_decompress_struct info;
    part_errors errors;
    // Volatile: read after longjmp.
    volatile fw_jpeg_part_status status = FW_JPEG_PART_DAMAGED;
    info.err = jpeg_std_error(&errors.manager);
    errors.manager.error_exit = leave;
    errors.manager.output_message = silent;
    jpeg_create_decompress(&info);
    if (setjmp(errors.exit)) {
        jpeg_destroy_decompress(&info);
        return status;
    }
    jpeg_mem_src(&info, jpeg, (unsigned long)size);
    jpeg_read_header(&info, TRUE);
    if (!suited(&info) || errors.manager.num_warnings > 0) {
        status = errors.manager.num_warnings > 0 ? FW_JPEG_PART_DAMAGED : FW_JPEG_PART_UNSUITED;
        jpeg_destroy_decompress(&info);
        return status;
    }
    // TurboJPEG's defaults for an RGB decode.
    info.out_color_space = JCS_RGB;
    info.dct_method = JDCT_ISLOW;
    info.do_fancy_upsampling = TRUE;
    jpeg_start_decompress(&info);
    if (part->first_row < 0 || part->end_row > (int)info.output_height || part->first_row >= part->end_row
        || part->first_column < 0 || part->end_column > (int)info.output_width || part->first_column >= part->end_column) {
        status = FW_JPEG_PART_UNSUITED;
        jpeg_destroy_decompress(&info);
        return status;
    }
    JDIMENSION first_column = (JDIMENSION)part->first_column;
    JDIMENSION width = (JDIMENSION)(part->end_column - part->first_column);
    jpeg_crop_scanline(&info, &first_column, &width);
    part->first_column = (int)first_column;
    part->end_column = (int)(first_column + width);
    if (part->first_row > 0) jpeg_skip_scanlines(&info, (JDIMENSION)part->first_row);
    // Several rows a call, as TurboJPEG reads them: libjpeg returns up to one row group at a time.
    JSAMPROW rows[32];
    while (info.output_scanline < (JDIMENSION)part->end_row) {
        JDIMENSION count = (JDIMENSION)part->end_row - info.output_scanline;
        if (count > 32) count = 32;
        for (JDIMENSION i = 0; i < count; i++) {
            rows[i] = out + (size_t)(info.output_scanline + i - (JDIMENSION)part->first_row) * row_stride;
        }
        jpeg_read_scanlines(&info, rows, count);
    }
    if (part->read_to_end) {
        // Skipping to the very end would only mark the image finished, reading
        // nothing: skip to the last row, which entropy-decodes the rows between,
        // and read that row, so the data is read to its end as a whole decode reads it.
        if (info.output_scanline + 1 < info.output_height) {
            jpeg_skip_scanlines(&info, info.output_height - 1 - info.output_scanline);
        }
        if (info.output_scanline < info.output_height) {
            JSAMPARRAY last = (*info.mem->alloc_sarray)((j_common_ptr)&info, JPOOL_IMAGE,
                                                        info.output_width * (JDIMENSION)info.output_components, 1);
            jpeg_read_scanlines(&info, last, 1);
        }
        jpeg_finish_decompress(&info);
    } else {
        jpeg_abort_decompress(&info);
    }
    status = errors.manager.num_warnings > 0 ? FW_JPEG_PART_DAMAGED : FW_JPEG_PART_DECODED;
    jpeg_destroy_decompress(&info);
    return status;
}
