/// Where the bytes of a raw frame are, derived from its format, dimensions and
/// row stride, and the validation that makes reading them safe.
///
/// Plane layout (all offsets from the start of the buffer, `s` = row stride,
/// `cw = ceil(width / 2)`, `ch = ceil(height / 2)`):
/// - packed and GRAY8: `height` rows of `s` bytes.
/// - NV12 / NV21: the Y plane (`height` rows of `s` bytes), then the chroma
///   plane: `ch` rows of `s` bytes, each starting with `cw` interleaved pairs.
/// - I420: the Y plane, then the U plane and then the V plane, each `ch` rows
///   of `(s + 1) / 2` bytes (libyuv's usual chroma stride for a luma stride).
///
/// The conformance file's `raw_image_layout` defines these layouts for the
/// worker and every client alike.
struct FrameGeometry: Sendable {
    let format: PixelFormat
    let width: Int
    let height: Int
    let rowStride: Int

    var chromaWidth: Int { (width + 1) / 2 }
    var chromaHeight: Int { (height + 1) / 2 }

    /// Row stride of the chroma plane(s); meaningful for the YUV formats only.
    /// I420's `(s + 1) / 2` is spelled so that a hostile `Int.max` stride
    /// cannot overflow before validation rejects it.
    var chromaStride: Int {
        format == .i420 ? rowStride / 2 + rowStride % 2 : rowStride
    }

    /// Offset of the first chroma plane (the only one for NV12 / NV21).
    var chromaOffset: Int { rowStride * height }

    /// Offset of I420's V plane.
    var secondChromaOffset: Int { chromaOffset + chromaStride * chromaHeight }

    /// The exact buffer length this geometry needs, saturating at `Int.max`.
    var byteCount: Int {
        let luma = Self.saturatingProduct(rowStride, height)
        switch format {
        case .rgb, .rgba, .bgra, .bgr, .gray8:
            return luma
        case .nv12, .nv21:
            return Self.saturatingSum(luma, Self.saturatingProduct(rowStride, chromaHeight))
        case .i420:
            return Self.saturatingSum(luma, Self.saturatingProduct(chromaStride, chromaHeight, 2))
        }
    }

    /// Checks, in this order, that both sides are positive, that the pixel
    /// count is within `maxPixels`, that the stride holds a row, and that the
    /// buffer is exactly as long as the geometry says; the first failure is thrown.
    init(
        format: PixelFormat, width: Int, height: Int, rowStride: Int,
        byteCount actual: Int, maxPixels: Int
    ) throws(ImagingError) {
        try PixelLimit.check(width: width, height: height, maxPixels: maxPixels)
        let minimum = format.minimumRowStride(width: width)
        guard rowStride >= minimum else {
            throw .rowStrideTooSmall(format: format, width: width, minimum: minimum, actual: rowStride)
        }
        self.format = format
        self.width = width
        self.height = height
        self.rowStride = rowStride
        guard actual == byteCount else {
            throw .bufferSizeMismatch(
                format: format, width: width, height: height, rowStride: rowStride,
                expected: byteCount, actual: actual
            )
        }
    }

    /// The geometry of packed RGB whose size its owner already checked, rows
    /// `rowStride` bytes apart (by default tightly packed).
    init(packedRGBWidth width: Int, height: Int, rowStride: Int? = nil) {
        format = .rgb
        self.width = width
        self.height = height
        self.rowStride = rowStride ?? width * 3
    }

    /// Product of non-negative factors, `Int.max` if it does not fit.
    static func saturatingProduct(_ factors: Int...) -> Int {
        var product = 1
        for factor in factors {
            let next = product.multipliedReportingOverflow(by: factor)
            if next.overflow { return .max }
            product = next.partialValue
        }
        return product
    }

    /// Sum of non-negative terms, `Int.max` if it does not fit.
    static func saturatingSum(_ a: Int, _ b: Int) -> Int {
        let sum = a.addingReportingOverflow(b)
        return sum.overflow ? .max : sum.partialValue
    }
}
