/// Raw pixels in memory the caller owns and keeps alive while the view is in
/// use (a message's bytes, a read-only shared-memory mapping): the borrowed
/// counterpart of ``RawFrame``, read in place and never copied whole.
///
/// A view exists only with its geometry checked (``FrameGeometry``, the same
/// checks as ``RawFrame/check(format:width:height:rowStride:byteCount:maxPixels:)``),
/// so every read the sampler makes lies inside `bytes`.
package struct RawFrameView {
    /// How the bytes encode pixels.
    package let format: PixelFormat
    /// Number of columns.
    package let width: Int
    /// Number of rows.
    package let height: Int
    /// Bytes from the start of one row to the start of the next (for the YUV
    /// formats: of the luma plane; the chroma strides derive from it).
    package let rowStride: Int
    /// The pixel data, exactly as long as the geometry says.
    package let bytes: UnsafeRawBufferPointer
    let geometry: FrameGeometry

    /// Checks the description against `bytes`, in ``RawFrame``'s order, and
    /// makes the view.
    ///
    /// - Throws: ``ImagingError/emptyImage(width:height:)``,
    ///   ``ImagingError/tooManyPixels(width:height:limit:)``,
    ///   ``ImagingError/rowStrideTooSmall(format:width:minimum:actual:)`` or
    ///   ``ImagingError/bufferSizeMismatch(format:width:height:rowStride:expected:actual:)``.
    package init(
        format: PixelFormat, width: Int, height: Int, rowStride: Int, bytes: UnsafeRawBufferPointer, maxPixels: Int
    ) throws(ImagingError) {
        geometry = try FrameGeometry(
            format: format, width: width, height: height, rowStride: rowStride, byteCount: bytes.count, maxPixels: maxPixels
        )
        self.format = format
        self.width = width
        self.height = height
        self.rowStride = rowStride
        self.bytes = bytes
    }

    /// Packed RGB of a checked size, such as an ``RGBImage``'s, rows
    /// `rowStride` bytes apart (by default tightly packed).
    init(packedRGB bytes: UnsafeRawBufferPointer, width: Int, height: Int, rowStride: Int? = nil) {
        geometry = FrameGeometry(packedRGBWidth: width, height: height, rowStride: rowStride)
        format = .rgb
        self.width = width
        self.height = height
        self.rowStride = geometry.rowStride
        self.bytes = bytes
    }

    /// The image's dimensions as stored.
    package var size: PixelSize { PixelSize(width: width, height: height) }

    /// The first byte; a checked geometry is never empty, so there is one.
    var base: UnsafePointer<UInt8> {
        bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
    }
}
