import Imaging

/// A frame as a client sends it, already checked: encoded or raw pixels whose
/// size is known and within the caller's limit, stored in some orientation,
/// with a timestamp for video and live-stream modes. The owning counterpart
/// of `FramePixels`, for library callers that hold their frames in arrays.
package struct FrameInput: Sendable {
    /// The pixels.
    package enum Pixels: Sendable {
        /// A JPEG file's bytes and the size its header states: the header is
        /// read once, by whoever checked the frame, and not again here.
        case jpeg([UInt8], size: PixelSize)
        /// Uncompressed pixels in one of the supported formats.
        case raw(RawFrame)
    }

    package var pixels: Pixels
    /// How the stored pixels must be turned to be upright; results refer to the upright image.
    package var orientation: ImageOrientation
    /// Milliseconds; required and strictly increasing in video and live-stream modes.
    package var timestampMs: Int64?

    /// Creates a frame.
    package init(pixels: Pixels, orientation: ImageOrientation = .topLeft, timestampMs: Int64? = nil) {
        self.pixels = pixels
        self.orientation = orientation
        self.timestampMs = timestampMs
    }
}

extension FacePipeline {
    /// Processes `frame` as `process(_:orientation:timestampMs:maxPixels:tracker:engine:)`
    /// processes its bytes, read in place.
    ///
    /// - Parameter maxPixels: the largest raw frame accepted; a JPEG's size
    ///   was checked when its header was read.
    package func process(_ frame: FrameInput, maxPixels: Int, tracker: inout FaceTracker, engine: FaceEngine) throws(FaceError) -> FaceResult {
        switch frame.pixels {
        case .jpeg(let bytes, let size):
            return try bytes.withUnsafeBufferPointer { (buffer) throws(FaceError) in
                try process(.jpeg(UnsafeRawBufferPointer(buffer), size: size), orientation: frame.orientation,
                            timestampMs: frame.timestampMs, maxPixels: maxPixels, tracker: &tracker, engine: engine)
            }
        case .raw(let raw):
            return try raw.bytes.withUnsafeBufferPointer { (buffer) throws(FaceError) in
                let view: RawFrameView
                do throws(ImagingError) {
                    view = try RawFrameView(format: raw.format, width: raw.width, height: raw.height, rowStride: raw.rowStride,
                                            bytes: UnsafeRawBufferPointer(buffer), maxPixels: maxPixels)
                } catch {
                    throw FaceError(error)
                }
                return try process(.raw(view), orientation: frame.orientation, timestampMs: frame.timestampMs,
                                   maxPixels: maxPixels, tracker: &tracker, engine: engine)
            }
        }
    }
}
