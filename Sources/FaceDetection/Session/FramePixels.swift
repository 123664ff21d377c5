import Imaging

/// A checked frame's pixels in memory the caller owns (a message's bytes, a
/// read-only shared-memory mapping), which the pipeline reads in place for
/// the duration of one `FacePipeline.process` call.
package enum FramePixels {
    /// A JPEG file's bytes and the size its header states: the header is read
    /// once, by whoever checked the frame, and not again here.
    case jpeg(UnsafeRawBufferPointer, size: PixelSize)
    /// Uncompressed pixels, their geometry checked.
    case raw(RawFrameView)
}

extension FacePipeline {
    /// Processes one frame stored in `orientation`, reading model inputs
    /// straight from its pixels: a raw frame is never converted whole, and a
    /// JPEG is decoded whole (by TurboJPEG) but never turned upright.
    ///
    /// A JPEG is always decoded at full resolution, so the faces found in it
    /// are those found in the same pixels sent raw: the detector samples the
    /// full image bilinearly, as MediaPipe does, and a DCT-reduced decode is a
    /// smoothed image whose boxes drift by a few pixels. A video or live-stream
    /// frame that only follows faces from the previous frame decodes just the
    /// part its crops read, when that is a small part of the image; either
    /// decode is split over the engine's pool while the pool is free. Both give
    /// the pixels of a whole decode. A JPEG whose data is damaged is decoded as
    /// libjpeg decodes it, its warning in the result's `warnings`, unless the
    /// options refuse damaged JPEGs.
    ///
    /// - Parameter maxPixels: the largest raw frame accepted; a JPEG's size
    ///   was checked when its header was read.
    package func process(
        _ pixels: FramePixels, orientation: ImageOrientation, timestampMs: Int64?, maxPixels: Int,
        tracker: inout FaceTracker, engine: FaceEngine
    ) throws(FaceError) -> FaceResult {
        switch pixels {
        case .jpeg(let bytes, let size):
            let clock = ContinuousClock()
            let start = clock.now
            if let region = partNeeded(tracker: tracker, storedSize: size, orientation: orientation),
               let part = engine.decodePart(bytes, size: size, region: region) {
                let decodeTime = clock.now - start
                var attempt = tracker
                var result = try part.withFrame(orientation: orientation) { (frame) throws(FaceError) in
                    try process(frame, timestampMs: timestampMs, tracker: &attempt, engine: engine)
                }
                if !engine.takeMissedPart() {
                    tracker = attempt
                    result.decodeTime = decodeTime
                    result.decodedPart = part.region
                    return result
                }
            }
            let decoded: JPEGDecoder.Decoded
            do throws(ImagingError) {
                decoded = try engine.decode(bytes, size: size, refuseDamaged: options.refuseDamagedJPEG)
            } catch {
                throw FaceError(error)
            }
            let decodeTime = clock.now - start
            var result = try decoded.image.withView { (view) throws(FaceError) in
                try process(OrientedFrame(view, orientation: orientation), timestampMs: timestampMs, tracker: &tracker, engine: engine)
            }
            result.decodeTime = decodeTime
            if let warning = decoded.warning { result.warnings.append(warning) }
            return result
        case .raw(let view):
            do throws(ImagingError) {
                try PixelLimit.check(width: view.width, height: view.height, maxPixels: maxPixels)
            } catch {
                throw FaceError(error)
            }
            return try process(OrientedFrame(view, orientation: orientation), timestampMs: timestampMs, tracker: &tracker, engine: engine)
        }
    }
}
