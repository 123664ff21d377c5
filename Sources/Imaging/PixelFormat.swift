/// The raw pixel layouts a client may send.
///
/// Packed formats store one pixel after another in each row. The YUV formats
/// store a full-resolution luma plane followed by chroma subsampled 2x2, and are
/// converted with BT.601 limited ("video") range; see ``RawFrame`` for how their
/// planes are laid out.
package enum PixelFormat: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// 3 bytes per pixel: red, green, blue.
    case rgb
    /// 4 bytes per pixel: red, green, blue, alpha (alpha is ignored).
    case rgba
    /// 4 bytes per pixel: blue, green, red, alpha (alpha is ignored).
    case bgra
    /// 3 bytes per pixel: blue, green, red.
    case bgr
    /// 1 byte per pixel: luminance, copied to all three channels.
    case gray8
    /// Y plane, then one plane of interleaved U, V pairs (2x2 subsampled).
    case nv12
    /// Y plane, then one plane of interleaved V, U pairs (2x2 subsampled).
    case nv21
    /// Y plane, then a U plane, then a V plane (both 2x2 subsampled).
    case i420

    package var description: String {
        switch self {
        case .rgb: return "RGB"
        case .rgba: return "RGBA"
        case .bgra: return "BGRA"
        case .bgr: return "BGR"
        case .gray8: return "GRAY8"
        case .nv12: return "NV12"
        case .nv21: return "NV21"
        case .i420: return "I420"
        }
    }

    /// The smallest row stride, in bytes, that holds one row of `width` pixels:
    /// the tightly packed stride a sender without padding should use.
    ///
    /// For the YUV formats this is the luma row; NV12 and NV21 round an odd
    /// width up so that the interleaved chroma row, which shares the stride,
    /// fits too.
    /// The result saturates at `Int.max` rather than overflowing.
    package func minimumRowStride(width: Int) -> Int {
        switch self {
        case .rgb, .bgr: return FrameGeometry.saturatingProduct(width, 3)
        case .rgba, .bgra: return FrameGeometry.saturatingProduct(width, 4)
        case .gray8, .i420: return width
        case .nv12, .nv21: return width.isMultiple(of: 2) ? width : FrameGeometry.saturatingSum(width, 1)
        }
    }
}
