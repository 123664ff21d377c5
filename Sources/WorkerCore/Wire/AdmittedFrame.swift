import FaceDetection
import Foundation
import Imaging

/// A frame that passed admission: its pixels described and checked (format,
/// size, stride and length, or the JPEG header), its bytes still as the
/// client sent them or in the shared buffer region it named. Nothing later
/// needs to trust a protobuf.
package struct AdmittedFrame: Sendable {
    /// The checked pixels.
    enum Pixels: Sendable {
        /// A JPEG file and the size its header states, within the pixel limit.
        case jpeg(FrameBytes, size: PixelSize)
        /// Raw pixels whose geometry matches their length, within the pixel limit.
        case raw(FrameBytes, format: PixelFormat, width: Int, height: Int, rowStride: Int)
    }

    /// The pixels.
    var pixels: Pixels
    /// How the stored pixels must be turned to be upright.
    var orientation: ImageOrientation
    /// The frame's timestamp, as sent.
    var timestampMs: Int64

    /// Runs `body` on the pixels, read in place from the message's bytes or
    /// the shared buffer's mapping: nothing is copied, and the view lives only
    /// as long as the call.
    func withPixels<Result>(_ body: (FramePixels) throws(FaceError) -> Result) throws(FaceError) -> Result {
        switch pixels {
        case .jpeg(let bytes, let size):
            return try Self.borrowing(bytes) { (buffer) throws(FaceError) in try body(.jpeg(buffer, size: size)) }
        case .raw(let bytes, let format, let width, let height, let rowStride):
            return try Self.borrowing(bytes) { (buffer) throws(FaceError) in
                let view: RawFrameView
                do throws(ImagingError) {
                    // Admission checked the geometry against the worker's limit; the pipeline checks the limit again.
                    view = try RawFrameView(format: format, width: width, height: height, rowStride: rowStride, bytes: buffer, maxPixels: .max)
                } catch {
                    throw FaceError(error)
                }
                return try body(.raw(view))
            }
        }
    }

    /// `FrameBytes.withUnsafeBytes` with the typed error kept.
    private static func borrowing<Result>(
        _ bytes: FrameBytes, _ body: (UnsafeRawBufferPointer) throws(FaceError) -> Result
    ) throws(FaceError) -> Result {
        try bytes.withUnsafeBytes { buffer in Swift.Result { () throws(FaceError) in try body(buffer) } }.get()
    }
}
