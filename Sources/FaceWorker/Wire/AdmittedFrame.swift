import FaceDetection
import Foundation
import Imaging

/// A frame that passed admission: its pixels described and checked (format,
/// size, stride and length, or the JPEG header), its bytes still as the
/// client sent them or in the shared buffer region it named. Nothing later
/// needs to trust a protobuf.
struct AdmittedFrame: Sendable {
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

    /// The pipeline's frame. The pixel bytes are copied here, once, into the
    /// array the pipeline reads, on the inference thread rather than the
    /// connection's event loop; bytes in a shared buffer are read from its
    /// mapping here and nowhere else.
    var input: FrameInput {
        switch pixels {
        case .jpeg(let bytes, let size):
            bytes.withUnsafeBytes { jpeg in
                FrameInput(pixels: .jpeg([UInt8](jpeg), size: size), orientation: orientation, timestampMs: timestampMs)
            }
        case .raw(let bytes, let format, let width, let height, let rowStride):
            bytes.withUnsafeBytes { raw in
                FrameInput(pixels: .raw(RawFrame(format: format, width: width, height: height, rowStride: rowStride, bytes: [UInt8](raw))),
                           orientation: orientation, timestampMs: timestampMs)
            }
        }
    }
}
