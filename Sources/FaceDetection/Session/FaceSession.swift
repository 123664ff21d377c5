import Imaging
import Inference

/// A face detector for image or video mode in the caller's own thread: the
/// library counterpart of MediaPipe's `detect` and `detect_for_video`.
///
/// Not thread-safe: one session per thread (it owns its runtimes). Sessions
/// made from the same `FaceModels` share the loaded weights.
public final class FaceSession {
    /// The pipeline configured by the session's options.
    public let pipeline: FacePipeline
    private let engine: FaceEngine
    private var state = FaceSessionState()

    /// Creates a session; fails if an option is out of range or the running
    /// mode is live stream (use `LiveStreamFaceSession`).
    public init(models: FaceModels, options: FaceOptions, threads: Int = 1) throws(FaceError) {
        guard options.runningMode != .liveStream else {
            throw .invalidArgument("live-stream mode needs LiveStreamFaceSession, which delivers results asynchronously")
        }
        pipeline = try FacePipeline(models: models, options: options)
        engine = FaceEngine(models: models, threadPool: try ThreadPool.forSession(threads: threads))
    }

    /// Detects faces in an independent image (image mode only).
    public func detect(_ image: RGBImage) throws(FaceError) -> FaceResult {
        guard pipeline.options.runningMode == .image else {
            throw .failedPrecondition("the session is in video mode; call detectForVideo with a timestamp")
        }
        return try pipeline.process(image, timestampMs: nil, state: &state, engine: engine)
    }

    /// Detects and tracks faces in the next video frame (video mode only);
    /// `timestampMs` must exceed the previous frame's.
    public func detectForVideo(_ image: RGBImage, timestampMs: Int64) throws(FaceError) -> FaceResult {
        guard pipeline.options.runningMode == .video else {
            throw .failedPrecondition("the session is in image mode; call detect")
        }
        return try pipeline.process(image, timestampMs: timestampMs, state: &state, engine: engine)
    }

    /// Decodes and processes a frame as a client sends it (JPEG or raw pixels,
    /// any orientation), in image or video mode.
    public func process(_ frame: FrameInput, maxPixels: Int = FaceSession.defaultMaxPixels) throws(FaceError) -> FaceResult {
        try pipeline.process(frame, maxPixels: maxPixels, state: &state, engine: engine)
    }

    /// The largest frame `process` accepts unless told otherwise: 64 megapixels.
    public static let defaultMaxPixels = 64 << 20

    /// Starts over for a new video: tracked faces and the last timestamp are
    /// forgotten, the models stay loaded.
    public func reset() {
        state.reset()
    }
}
