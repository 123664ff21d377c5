import Imaging
import Inference

/// A face detector for image or video mode in the caller's own thread: the
/// library counterpart of MediaPipe's `detect` and `detect_for_video`.
///
/// Not thread-safe: one session per thread (it owns its runtimes). Sessions
/// made from the same `FaceModels` share the loaded weights. Live-stream mode,
/// whose results arrive asynchronously, is the worker's: a library caller that
/// wants the newest frame only simply calls `detectForVideo` with it.
package final class FaceSession {
    /// The pipeline configured by the session's options.
    package let pipeline: FacePipeline
    private let engine: FaceEngine
    private var frames: SessionFrames

    /// Creates a session; fails if an option is out of range or the running
    /// mode is live stream.
    package init(models: FaceModels, options: FaceOptions, threads: Int = 1) throws(FaceError) {
        guard options.runningMode != .liveStream else {
            throw .invalidArgument("live-stream mode delivers results asynchronously, which only the worker does; use video mode in a library session")
        }
        pipeline = try FacePipeline(models: models, options: options)
        engine = FaceEngine(models: models, threadPool: try ThreadPool.forSession(threads: threads))
        frames = SessionFrames(mode: options.runningMode)
    }

    /// Detects faces in an independent image (image mode only).
    package func detect(_ image: RGBImage) throws(FaceError) -> FaceResult {
        guard pipeline.options.runningMode == .image else {
            throw .failedPrecondition("the session is in video mode; call detectForVideo with a timestamp")
        }
        return try frames.withTracker { tracker throws(FaceError) in
            try pipeline.process(image, timestampMs: nil, tracker: &tracker, engine: engine)
        }
    }

    /// Detects and tracks faces in the next video frame (video mode only);
    /// `timestampMs` must exceed the previous frame's.
    package func detectForVideo(_ image: RGBImage, timestampMs: Int64) throws(FaceError) -> FaceResult {
        guard pipeline.options.runningMode == .video else {
            throw .failedPrecondition("the session is in image mode; call detect")
        }
        try frames.accept(timestampMs)
        return try frames.withTracker { tracker throws(FaceError) in
            try pipeline.process(image, timestampMs: timestampMs, tracker: &tracker, engine: engine)
        }
    }

    /// Decodes and processes a JPEG file's bytes, in image or video mode
    /// (`timestampMs` as `detectForVideo` wants it), refusing one whose header
    /// states more than `maxPixels` pixels before decoding it.
    package func process(jpeg: [UInt8], orientation: ImageOrientation = .topLeft, timestampMs: Int64? = nil,
                        maxPixels: Int = FaceSession.defaultMaxPixels) throws(FaceError) -> FaceResult {
        let size: PixelSize
        do throws(ImagingError) {
            size = try JPEGDecoder().header(of: jpeg)
            try PixelLimit.check(width: size.width, height: size.height, maxPixels: maxPixels)
        } catch {
            throw FaceError(error)
        }
        return try process(FrameInput(pixels: .jpeg(jpeg, size: size), orientation: orientation, timestampMs: timestampMs), maxPixels: maxPixels)
    }

    /// Converts and processes a checked frame (see `FrameInput`), in image or
    /// video mode.
    package func process(_ frame: FrameInput, maxPixels: Int = FaceSession.defaultMaxPixels) throws(FaceError) -> FaceResult {
        try frames.accept(frame.timestampMs)
        return try frames.withTracker { tracker throws(FaceError) in
            try pipeline.process(frame, maxPixels: maxPixels, tracker: &tracker, engine: engine)
        }
    }

    /// The largest frame `process` accepts unless told otherwise: 64 megapixels.
    package static let defaultMaxPixels = 64 << 20

    /// Starts over for a new video: tracked faces and the last timestamp are
    /// forgotten, the models stay loaded.
    package func reset() {
        frames.reset()
    }
}
