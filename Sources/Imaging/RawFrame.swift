/// Uncompressed pixels as a client sends them: a format, the dimensions, the
/// row stride in bytes, and the buffer.
///
/// Nothing is checked until a ``RawFrameView`` is made over its bytes, so a
/// frame can be built straight from untrusted fields. The buffer must be
/// exactly as long as the geometry implies (see ``PixelFormat`` for the
/// layouts): for packed formats and GRAY8 that is `height * rowStride`; for
/// NV12 and NV21 it is `(height + ceil(height / 2)) * rowStride`, the chroma
/// rows sharing the luma stride; for I420 it is `height * rowStride` plus two
/// chroma planes of `ceil(height / 2)` rows with stride `ceil(rowStride / 2)`.
///
/// YUV pixels are converted (each as the sampler reads it) with BT.601 limited ("video") range, as libyuv's
/// `I420ToARGB` does, but with exact coefficients and rounding to nearest:
///
///     R = 255/219 (Y - 16) + 255/224 * 1.402 (V - 128)
///     G = 255/219 (Y - 16) - 255/224 * 1.772 * 0.114/0.587 (U - 128)
///                          - 255/224 * 1.402 * 0.299/0.587 (V - 128)
///     B = 255/219 (Y - 16) + 255/224 * 1.772 (U - 128)
///
/// (about 1.164, 1.596, 0.392, 0.813 and 2.017), each rounded to nearest and
/// clamped to 0...255. Chroma is nearest-neighbour upsampled: pixel `(x, y)`
/// uses chroma sample `(x / 2, y / 2)`, which also defines odd widths and
/// heights (the last column or row has a chroma sample of its own).
package struct RawFrame: Sendable {
    /// How the bytes encode pixels.
    package var format: PixelFormat
    /// Number of columns.
    package var width: Int
    /// Number of rows.
    package var height: Int
    /// Bytes from the start of one row to the start of the next (for the YUV
    /// formats: of the luma plane; the chroma strides derive from it).
    package var rowStride: Int
    /// The pixel data.
    package var bytes: [UInt8]

    /// Describes a frame; validation happens when it is viewed.
    package init(format: PixelFormat, width: Int, height: Int, rowStride: Int, bytes: [UInt8]) {
        self.format = format
        self.width = width
        self.height = height
        self.rowStride = rowStride
        self.bytes = bytes
    }

    /// Checks a frame's description before its bytes are needed: the checks
    /// a ``RawFrameView`` runs, in the same order, on the fields alone.
    package static func check(format: PixelFormat, width: Int, height: Int, rowStride: Int, byteCount: Int,
                             maxPixels: Int) throws(ImagingError) {
        _ = try FrameGeometry(format: format, width: width, height: height, rowStride: rowStride,
                              byteCount: byteCount, maxPixels: maxPixels)
    }
}
