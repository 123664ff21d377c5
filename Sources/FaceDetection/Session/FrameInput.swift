import Imaging

/// A frame as a client sends it, already checked: encoded or raw pixels whose
/// size is known and within the caller's limit, stored in some orientation,
/// with a timestamp for video and live-stream modes.
public struct FrameInput: Sendable {
    /// The pixels.
    public enum Pixels: Sendable {
        /// A JPEG file's bytes and the size its header states: the header is
        /// read once, by whoever checked the frame, and not again here.
        case jpeg([UInt8], size: PixelSize)
        /// Uncompressed pixels in one of the supported formats.
        case raw(RawFrame)
    }

    public var pixels: Pixels
    /// How the stored pixels must be turned to be upright; results refer to the upright image.
    public var orientation: ImageOrientation
    /// Milliseconds; required and strictly increasing in video and live-stream modes.
    public var timestampMs: Int64?

    /// Creates a frame.
    public init(pixels: Pixels, orientation: ImageOrientation = .topLeft, timestampMs: Int64? = nil) {
        self.pixels = pixels
        self.orientation = orientation
        self.timestampMs = timestampMs
    }
}

extension FacePipeline {
    /// Decodes `frame`, turns it upright and processes it with the session's
    /// tracking state.
    ///
    /// A JPEG is always decoded at full resolution, so the faces found in it are
    /// those found in the same pixels sent raw: the detector samples the full
    /// image bilinearly, as MediaPipe does, and a DCT-reduced decode is a
    /// smoothed image whose boxes drift by a few pixels.
    ///
    /// - Parameter maxPixels: the largest raw frame converted; a JPEG's size
    ///   was checked when its header was read.
    public func process(_ frame: FrameInput, maxPixels: Int, tracker: inout FaceTracker, engine: FaceEngine) throws(FaceError) -> FaceResult {
        let clock = ContinuousClock()
        let start = clock.now
        let image: RGBImage
        do throws(ImagingError) {
            switch frame.pixels {
            case .jpeg(let bytes, let size):
                image = try engine.jpegDecoder().decode(bytes, size: size)
            case .raw(let raw):
                image = try raw.rgbImage(maxPixels: maxPixels)
            }
        } catch {
            throw FaceError(error)
        }
        let upright = image.upright(from: frame.orientation)
        let decoded = clock.now
        var result = try process(upright, timestampMs: frame.timestampMs, tracker: &tracker, engine: engine)
        result.decodeTime = decoded - start
        return result
    }
}
