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
    /// When the options need no landmarks, a JPEG is decoded at the strongest
    /// DCT reduction that still gives the detector at least its input
    /// resolution, and the results are mapped back to the full image.
    public func process(_ frame: FrameInput, maxPixels: Int, state: inout FaceSessionState, engine: FaceEngine) throws(FaceError) -> FaceResult {
        let clock = ContinuousClock()
        let start = clock.now
        let image: RGBImage
        var scale = JPEGScale.full
        var storedSize: PixelSize
        do {
            switch frame.pixels {
            case .jpeg(let bytes):
                let decoder = try engine.jpegDecoder()
                storedSize = try decoder.header(of: bytes)
                let minimum = options.needsMesh ? nil : detectorMinimumSize(for: storedSize)
                let decoded = try decoder.decode(bytes, maxPixels: maxPixels, minimumSize: minimum)
                image = decoded.image
                scale = decoded.scale
            case .raw(let raw):
                image = try raw.rgbImage(maxPixels: maxPixels)
                storedSize = image.size
            }
        } catch {
            throw .invalidArgument(error.description)
        }
        let upright = image.upright(from: frame.orientation)
        let decoded = clock.now
        var result = try process(upright, timestampMs: frame.timestampMs, state: &state, engine: engine)
        result.decodeMicros = (decoded - start).microseconds
        if scale != .full {
            result.mapToFullResolution(frame.orientation.uprightSize(of: storedSize), scale: scale)
        }
        return result
    }

    /// The smallest decoded size whose long side is still twice the detector's
    /// input side. At exactly the input side the detector's scores drift by
    /// up to 0.1 from MediaPipe's (which samples the full image without
    /// smoothing) and it starts to see faces in fur; at twice it stays close.
    func detectorMinimumSize(for stored: PixelSize) -> PixelSize {
        let long = max(stored.width, stored.height)
        let input = 2 * detector.model.inputSize
        return PixelSize(width: (stored.width * input + long - 1) / long, height: (stored.height * input + long - 1) / long)
    }
}

extension FaceResult {
    /// Moves detection-only results from a DCT-reduced decode onto the full image.
    ///
    /// A reduced image's side is the full side divided by the scale and rounded
    /// up, so its normalized coordinates stretch by `scaled * scale / full`.
    mutating func mapToFullResolution(_ full: PixelSize, scale: JPEGScale) {
        let stretchX = Float(imageWidth * scale.denominator) / Float(full.width)
        let stretchY = Float(imageHeight * scale.denominator) / Float(full.height)
        let pixelX = Float(scale.denominator), pixelY = Float(scale.denominator)
        for index in faces.indices {
            faces[index].keypoints = faces[index].keypoints.map {
                NormalizedLandmark(x: $0.x * stretchX, y: $0.y * stretchY, z: $0.z)
            }
            let box = faces[index].boundingBox
            faces[index].boundingBox = PixelRect(x: box.x * pixelX, y: box.y * pixelY, width: box.width * pixelX, height: box.height * pixelY)
        }
        imageWidth = full.width
        imageHeight = full.height
    }
}
