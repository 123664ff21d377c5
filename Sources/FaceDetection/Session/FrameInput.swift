import Imaging

/// A frame as a client sends it: encoded or raw pixels, stored in some
/// orientation, with a timestamp for video and live-stream modes.
public struct FrameInput: Sendable {
    /// The pixels.
    public enum Pixels: Sendable {
        /// A JPEG file's bytes.
        case jpeg([UInt8])
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
    /// Decodes `frame` (checking its size against `maxPixels` from the header,
    /// before decoding), turns it upright and processes it.
    ///
    /// A JPEG is always decoded at full resolution, so the faces found in it are
    /// those found in the same pixels sent raw: the detector samples the full
    /// image bilinearly, as MediaPipe does, and a DCT-reduced decode is a
    /// smoothed image whose boxes drift by a few pixels.
    public func process(_ frame: FrameInput, maxPixels: Int, state: inout FaceSessionState, engine: FaceEngine) throws(FaceError) -> FaceResult {
        let clock = ContinuousClock()
        let start = clock.now
        let image: RGBImage
        do {
            switch frame.pixels {
            case .jpeg(let bytes):
                image = try engine.jpegDecoder().decode(bytes, maxPixels: maxPixels)
            case .raw(let raw):
                image = try raw.rgbImage(maxPixels: maxPixels)
            }
        } catch {
            throw .invalidArgument(error.description)
        }
        let upright = image.upright(from: frame.orientation)
        let decoded = clock.now
        var result = try process(upright, timestampMs: frame.timestampMs, state: &state, engine: engine)
        result.decodeMicros = (decoded - start).microseconds
        return result
    }
}
