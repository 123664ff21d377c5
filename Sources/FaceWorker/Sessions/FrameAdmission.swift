import FaceWorkerProtocol
import Foundation
import Imaging

/// The checks a frame passes on the event loop before it may wait for an
/// inference thread: everything that needs no decoding, so a frame that can
/// never succeed neither takes a queue place nor costs a thread hop.
///
/// Pixel counts are checked here from the raw frame's fields or the JPEG's
/// header, before anything is decoded or allocated.
struct FrameAdmission {
    /// The largest stored image accepted, in pixels.
    let maxPixels: Int

    /// Reads JPEG headers; one per connection, as a decoder is not thread-safe.
    private let headerReader: JPEGDecoder

    /// Admission for images of at most `maxPixels` pixels.
    init(maxPixels: Int) throws(ImagingError) {
        self.maxPixels = maxPixels
        headerReader = try JPEGDecoder()
    }

    /// Nil when the frame may be queued, else why not.
    func refusal(of frame: Faceworker_V1_Frame) -> (Faceworker_V1_Status.Code, String)? {
        if case .UNRECOGNIZED(let value) = frame.orientation {
            return (.invalidArgument, "orientation \(value) is not an Orientation (0 to 7)")
        }
        switch frame.image {
        case nil:
            return (.invalidArgument, "the frame has no image: set jpeg or raw")
        case .jpeg(let jpeg):
            return refusal(ofJPEG: jpeg)
        case .raw(let raw):
            return refusal(ofRaw: raw)
        }
    }

    private func refusal(ofJPEG jpeg: Data) -> (Faceworker_V1_Status.Code, String)? {
        let header = jpeg.withUnsafeBytes { bytes in
            Result { () throws(ImagingError) in try headerReader.header(of: bytes) }
        }
        let size: PixelSize
        switch header {
        case .success(let headerSize): size = headerSize
        case .failure(let error): return (.invalidArgument, error.description)
        }
        return refusal(width: size.width, height: size.height, kind: "JPEG")
    }

    private func refusal(ofRaw raw: Faceworker_V1_RawImage) -> (Faceworker_V1_Status.Code, String)? {
        switch raw.format {
        case .unspecified:
            return (.invalidArgument, "raw.format is PIXEL_FORMAT_UNSPECIFIED: say how the pixels are laid out")
        case .UNRECOGNIZED(let value):
            return (.invalidArgument, "raw.format \(value) is not a PixelFormat")
        default:
            break
        }
        guard raw.width > 0, raw.height > 0 else {
            return (.invalidArgument, "raw image size \(raw.width)x\(raw.height) is empty: width and height must both be at least 1")
        }
        return refusal(width: Int(raw.width), height: Int(raw.height), kind: "raw image")
    }

    private func refusal(width: Int, height: Int, kind: String) -> (Faceworker_V1_Status.Code, String)? {
        let pixels = width.multipliedReportingOverflow(by: height)
        guard pixels.overflow || pixels.partialValue > maxPixels else { return nil }
        return (.resourceExhausted, "\(kind) is \(width)x\(height), more than the worker's limit of \(maxPixels) pixels (--max-pixels)")
    }
}
