import FaceDetection
import FaceWorkerProtocol
import Foundation
import Imaging

/// The checks a frame passes on the event loop before it may wait for an
/// inference thread: everything that needs no decoding, so a frame that can
/// never succeed neither takes a queue place nor costs a thread hop, and the
/// inference side gets a typed, checked frame.
///
/// Pixel counts are checked from the raw frame's fields or the JPEG's header,
/// before anything is decoded or allocated; the JPEG header is read here and
/// nowhere else.
package struct FrameAdmission {
    /// The largest stored image accepted, in pixels.
    let maxPixels: Int

    /// The client's shared buffers, which regions name; nil when the client
    /// came through a door that cannot pass descriptors.
    let buffers: BufferTable?

    /// Admission for images of at most `maxPixels` pixels, whose regions name `buffers`.
    package init(maxPixels: Int, buffers: BufferTable?) {
        self.maxPixels = maxPixels
        self.buffers = buffers
    }

    /// The frame, checked, or why it cannot be processed.
    package func admit(_ frame: Faceworker_V1_Frame) -> Result<AdmittedFrame, CallError> {
        Result { () throws(CallError) in
            // The EXIF value is the wire value plus one; an unknown wire value names none.
            guard let orientation = ImageOrientation(rawValue: frame.orientation.rawValue + 1) else {
                throw CallError(.invalidArgument, "orientation \(frame.orientation.rawValue) is not an Orientation (0 to 7)")
            }
            let pixels: AdmittedFrame.Pixels
            switch frame.image {
            case nil:
                throw CallError(.invalidArgument, "the frame has no image: set jpeg, raw or shared_jpeg")
            case .jpeg(let jpeg):
                pixels = try admit(jpeg: .inline(jpeg))
            case .raw(let raw):
                pixels = try admit(raw: raw)
            case .sharedJpeg(let region):
                pixels = try admit(jpeg: .shared(sharedBuffers().region(region, field: "shared_jpeg")))
            }
            return AdmittedFrame(pixels: pixels, orientation: orientation, timestampMs: frame.timestampMs)
        }
    }

    private func admit(jpeg: FrameBytes) throws(CallError) -> AdmittedFrame.Pixels {
        let header = jpeg.withUnsafeBytes { bytes in
            Result { () throws(ImagingError) in
                let size = try JPEGDecoder().header(of: bytes)
                try PixelLimit.check(width: size.width, height: size.height, maxPixels: maxPixels)
                return size
            }
        }
        switch header {
        case .success(let size): return .jpeg(jpeg, size: size)
        case .failure(let error): throw refusal(error, kind: "JPEG")
        }
    }

    private func admit(raw: Faceworker_V1_RawImage) throws(CallError) -> AdmittedFrame.Pixels {
        let format: PixelFormat
        switch raw.format {
        case .unspecified:
            throw CallError(.invalidArgument, "raw.format is PIXEL_FORMAT_UNSPECIFIED: say how the pixels are laid out")
        case .UNRECOGNIZED(let value):
            throw CallError(.invalidArgument, "raw.format \(value) is not a PixelFormat")
        case .rgb: format = .rgb
        case .rgba: format = .rgba
        case .bgra: format = .bgra
        case .bgr: format = .bgr
        case .gray8: format = .gray8
        case .nv12: format = .nv12
        case .nv21: format = .nv21
        case .i420: format = .i420
        }
        let width = Int(raw.width), height = Int(raw.height)
        // 0 means tightly packed rows.
        let rowStride = raw.rowStride == 0 ? format.minimumRowStride(width: width) : Int(raw.rowStride)
        let bytes: FrameBytes
        if raw.hasRegion {
            guard raw.data.isEmpty else {
                throw CallError(.invalidArgument, "raw has both data (\(raw.data.count) bytes) and a region: set one of them")
            }
            bytes = .shared(try sharedBuffers().region(raw.region, field: "raw.region"))
        } else {
            bytes = .inline(raw.data)
        }
        do throws(ImagingError) {
            try RawFrame.check(format: format, width: width, height: height, rowStride: rowStride, byteCount: bytes.count, maxPixels: maxPixels)
        } catch {
            throw refusal(error, kind: "raw image")
        }
        return .raw(bytes, format: format, width: width, height: height, rowStride: rowStride)
    }

    /// The status for an image refused from its description: the pixel limit
    /// names the worker's flag, everything else keeps its category.
    private func refusal(_ error: ImagingError, kind: String) -> CallError {
        if case .tooManyPixels(let width, let height, let limit) = error {
            return CallError(.resourceExhausted, "\(kind) is \(width)x\(height), more than the worker's limit of \(limit) pixels (--max-pixels)")
        }
        return CallError(FaceError(error))
    }

    private func sharedBuffers() throws(CallError) -> BufferTable {
        guard let buffers else { throw Self.noSharedMemory }
        return buffers
    }

    /// Why a client of the gRPC door cannot use shared memory.
    static let noSharedMemory = CallError(.failedPrecondition,
        "shared-memory buffers and frames need the worker's own socket, which passes file descriptors; through gRPC a frame carries its bytes (jpeg, or raw with data)")
}
