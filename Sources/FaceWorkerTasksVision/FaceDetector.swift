import FaceWorkerClient
import FaceWorkerProtocol

/// Finds faces on images (MediaPipe's `FaceDetector`), on a face-worker:
/// each detector holds one session on a connection of its own.
///
/// ```swift
/// let options = FaceDetectorOptions()
/// options.runningMode = .video
/// let faceDetector = try FaceDetector(options: options)
/// let result = try faceDetector.detect(videoFrame: image, timestampInMilliseconds: 40)
/// ```
///
/// The synchronous methods block their thread until the worker answers, as
/// MediaPipe's do; from async code, call their `async` forms. The
/// connection closes with ``close()`` or when the detector is released.
public final class FaceDetector: Sendable {
    private let session: TaskSession
    private let outlet = LiveStreamOutlet<FaceDetectorResult>(label: "FaceDetector.liveStream")
    private let delegate: DelegateReference

    /// Connects to the worker and opens a session with `options`.
    ///
    /// - Throws: ``TasksError``: INVALID_ARGUMENT for an option out of range
    ///   (naming it), a model the worker does not serve, or a delegate in the
    ///   wrong running mode; UNAVAILABLE when no worker listens.
    public init(options: FaceDetectorOptions) throws {
        let request = try options.request()
        session = try Blocking.wait { try await TaskSession.open(request) }
        delegate = DelegateReference(options.faceDetectorLiveStreamDelegate)
        startDelivery()
    }

    /// ``init(options:)`` without blocking.
    public init(options: FaceDetectorOptions) async throws {
        session = try await TaskSession.open(try options.request())
        delegate = DelegateReference(options.faceDetectorLiveStreamDelegate)
        startDelivery()
    }

    /// An image-mode detector of the model at `modelPath`, with the default
    /// options.
    public convenience init(modelPath: String) throws {
        let options = FaceDetectorOptions()
        options.baseOptions.modelAssetPath = modelPath
        try self.init(options: options)
    }

    deinit {
        let session = session
        Task { await session.close() }
    }

    /// Finds the faces on `image` (image mode).
    public func detect(image: MPImage) throws -> FaceDetectorResult {
        try session.check(.image)
        return try Blocking.wait { [session] in FaceDetectorResult(try await session.process(image, timestamp: 0)) }
    }

    /// Finds the faces on `image` (image mode).
    public func detect(image: MPImage) async throws -> FaceDetectorResult {
        try session.check(.image)
        return FaceDetectorResult(try await session.process(image, timestamp: 0))
    }

    /// Finds the faces on a video's frame (video mode); timestamps must
    /// increase.
    public func detect(videoFrame image: MPImage, timestampInMilliseconds: Int) throws -> FaceDetectorResult {
        try session.check(.video)
        return try Blocking.wait { [session] in
            FaceDetectorResult(try await session.process(image, timestamp: timestampInMilliseconds))
        }
    }

    /// Finds the faces on a video's frame (video mode); timestamps must
    /// increase.
    public func detect(videoFrame image: MPImage, timestampInMilliseconds: Int) async throws -> FaceDetectorResult {
        try session.check(.video)
        return FaceDetectorResult(try await session.process(image, timestamp: timestampInMilliseconds))
    }

    /// Sends a live frame (live-stream mode) and returns once it is on its
    /// way; the delegate and ``liveStreamResults`` get its outcome.
    /// Timestamps must increase.
    public func detectAsync(image: MPImage, timestampInMilliseconds: Int) throws {
        try session.check(.liveStream)
        try Blocking.wait { [session] in try await session.send(image, timestamp: timestampInMilliseconds) }
    }

    /// Sends a live frame (live-stream mode); see the synchronous form.
    public func detectAsync(image: MPImage, timestampInMilliseconds: Int) async throws {
        try session.check(.liveStream)
        try await session.send(image, timestamp: timestampInMilliseconds)
    }

    /// Live-stream mode's outcomes as an asynchronous sequence, besides the
    /// delegate: every outcome from the first read of this property on.
    public var liveStreamResults: AsyncStream<LiveStreamDetection<FaceDetectorResult>> {
        outlet.results
    }

    /// Creates a shared-memory buffer of `size` bytes on this task's
    /// connection: frames written into it travel as the region they fill
    /// (``MPImage/init(image:orientation:)`` with `buffer.image(...)`), not
    /// as their bytes. A region is the worker's from the moment its image
    /// is sent until its result arrives.
    public func registerBuffer(size: Int) async throws -> SharedFrameBuffer {
        try await session.registerBuffer(size: size)
    }

    /// Closes the session and the connection once every frame sent is
    /// answered, and returns once the delegate has heard every outcome;
    /// then ends ``liveStreamResults``. Later calls fail. Not to be called
    /// from the delegate, which it waits for.
    public func close() async {
        await session.close()
        await outlet.drain()
    }

    private func startDelivery() {
        guard session.runningMode == .liveStream else { return }
        outlet.run(session.deliver { [weak self] timestamp, outcome in self?.finish(timestamp, outcome) })
    }

    private func finish(_ timestamp: Int, _ outcome: Result<Faceworker_V1_FrameResult, TasksError>) {
        let detection: LiveStreamDetection<FaceDetectorResult>
        switch outcome {
        case .success(let result): detection = LiveStreamDetection(result: FaceDetectorResult(result), timestampInMilliseconds: timestamp, error: nil)
        case .failure(let error): detection = LiveStreamDetection(result: nil, timestampInMilliseconds: timestamp, error: error)
        }
        outlet.deliver(detection) { [self, delegate] in
            (delegate.delegate as? any FaceDetectorLiveStreamDelegate)?.faceDetector(self, didFinishDetection: detection.result, timestampInMilliseconds: timestamp, error: detection.error)
        }
    }
}
