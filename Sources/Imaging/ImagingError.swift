/// Why an image could not be read, converted or decoded.
///
/// Every case describes the problem in words a client can act on: size
/// mismatches carry both the expected and the actual value, and JPEG failures
/// carry TurboJPEG's own message.
package enum ImagingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The width or the height is zero or negative.
    case emptyImage(width: Int, height: Int)
    /// The image has more pixels than the caller allows. This is checked from
    /// the dimensions alone (a JPEG's header), before any pixel is read.
    case tooManyPixels(width: Int, height: Int, limit: Int)
    /// A raw frame's row stride is shorter than one row of its pixels.
    case rowStrideTooSmall(format: PixelFormat, width: Int, minimum: Int, actual: Int)
    /// A buffer's length does not match the length its geometry implies.
    /// `expected` saturates at `Int.max` when the geometry overflows.
    case bufferSizeMismatch(format: PixelFormat, width: Int, height: Int, rowStride: Int, expected: Int, actual: Int)
    /// TurboJPEG refused the data (corrupt, truncated, hostile or not a JPEG).
    case invalidJPEG(String)
    /// TurboJPEG itself failed (could not create an instance, or could not
    /// encode), independently of any input data.
    case turboJPEG(String)

    package var description: String {
        switch self {
        case .emptyImage(let width, let height):
            return "image size \(width)x\(height) is empty: width and height must both be positive"
        case .tooManyPixels(let width, let height, let limit):
            let pixels = width.multipliedReportingOverflow(by: height)
            let count = pixels.overflow ? "more than \(Int.max)" : "\(pixels.partialValue)"
            return "image is \(width)x\(height) (\(count) pixels), more than the limit of \(limit) pixels"
        case .rowStrideTooSmall(let format, let width, let minimum, let actual):
            return "row stride too small for a \(width) pixel wide \(format) frame: expected at least \(minimum) bytes, got \(actual)"
        case .bufferSizeMismatch(let format, let width, let height, let rowStride, let expected, let actual):
            return "\(format) frame \(width)x\(height) with row stride \(rowStride) has the wrong buffer size: expected \(expected) bytes, got \(actual)"
        case .invalidJPEG(let message):
            return "invalid JPEG: \(message)"
        case .turboJPEG(let message):
            return "TurboJPEG failed: \(message)"
        }
    }
}
