import FaceWorkerClient
import FaceWorkerProtocol
import Synchronization

/// What ``FaceDetector/process(_:completion:)`` calls: the faces, or why
/// there are none (a ``FaceDetectionError``).
public typealias FaceDetectionCallback = ([Face]?, (any Error)?) -> Void

/// Finds faces on images (ML Kit's `FaceDetector`), on a face-worker: each
/// detector holds one session on a connection of its own, opened with its
/// first image.
///
/// ```swift
/// let faceDetector = FaceDetector.faceDetector(options: options)
/// let faces = try faceDetector.results(in: VisionImage(contentsOf: photoURL))
/// ```
///
/// Images are processed one at a time, in the order given. With
/// `isTrackingEnabled` they are taken as a video's frames, so tracking IDs
/// follow faces from one image to the next.
public final class FaceDetector: Sendable {
    private struct State {
        var client: FaceWorkerClient?
        var session: FaceWorkerSession?
        var lastTimestamp: Int64 = 0
        /// The last call queued, which the next one waits for.
        var tail: Task<Void, Never>?
    }

    private let options: Faceworker_V1_SessionOptions
    private let socketPath: String?
    private let reconnect: ReconnectPolicy?
    private let state = Mutex(State())
    /// When the detector was made: its images' timestamps count from here.
    private let origin = ContinuousClock.now

    private init(options: FaceDetectorOptions) {
        self.options = options.wire
        socketPath = options.socketPath
        reconnect = options.reconnect
    }

    deinit {
        let (client, session) = state.withLock { ($0.client, $0.session) }
        guard let client else { return }
        Task {
            try? await session?.close()
            await client.close()
        }
    }

    /// A detector with `options`; it connects with its first image, where a
    /// bad option or a missing worker is reported.
    public static func faceDetector(options: FaceDetectorOptions) -> FaceDetector {
        FaceDetector(options: options)
    }

    /// A detector with the default options.
    public static func faceDetector() -> FaceDetector {
        FaceDetector(options: FaceDetectorOptions())
    }

    /// Finds the faces on `image` without blocking, and calls `completion`
    /// with them (an empty array when there is none) or with the error, on
    /// a thread of the client's own: dispatch to your UI's queue from there.
    public func process(_ image: VisionImage, completion: sending @escaping FaceDetectionCallback) {
        let task = enqueue(image)
        Task(executorPreference: Blocking.executor) {
            do {
                completion(try await task.value, nil)
            } catch {
                completion(nil, error)
            }
        }
    }

    /// Finds the faces on `image`, blocking this thread until the worker
    /// answers.
    ///
    /// - Throws: ``FaceDetectionError``: INVALID_ARGUMENT for an option out
    ///   of range (naming it) or an image the worker cannot read;
    ///   UNAVAILABLE when no worker listens.
    public func results(in image: VisionImage) throws -> [Face] {
        let task = enqueue(image)
        return try Blocking.wait { try await task.value }
    }

    /// Finds the faces on `image`.
    public func results(in image: VisionImage) async throws -> [Face] {
        try await enqueue(image).value
    }

    /// Creates a shared-memory buffer of `size` bytes on this detector's
    /// connection (opening it if needed): frames written into it travel as
    /// the region they fill (``VisionImage/init(buffer:)`` with
    /// `buffer.image(...)`), not as their bytes. A region is the worker's
    /// from the moment its image is sent until its faces are returned.
    public func registerBuffer(size: Int) async throws -> SharedFrameBuffer {
        do {
            // Opened in turn, so that an image given meanwhile does not open a second session.
            try await serialized { [self] in _ = try await openedSession() }.value
            guard let client = state.withLock({ $0.client }) else { throw FaceWorkerError(code: .unavailable, message: "the detector was closed") }
            return try await client.registerBuffer(size: size)
        } catch let error as FaceWorkerError {
            throw FaceDetectionError(error)
        }
    }

    /// Closes the session and the connection once the images given are
    /// processed; a later image opens them again.
    public func close() async {
        await state.withLock { $0.tail }?.value
        let (client, session) = state.withLock { state in
            defer { (state.client, state.session) = (nil, nil) }
            return (state.client, state.session)
        }
        try? await session?.close()
        await client?.close()
    }

    /// Queues `image` behind the images given before it.
    private func enqueue(_ image: VisionImage) -> Task<[Face], any Error> {
        let pixels = image.image, orientation = image.effectiveOrientation
        return serialized { [self] in try await run(pixels, orientation: orientation) }
    }

    /// Runs `work` once every call queued before it has finished.
    private func serialized<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) -> Task<T, any Error> {
        state.withLock { state in
            let previous = state.tail
            let task = Task(executorPreference: Blocking.executor) {
                await previous?.value
                return try await work()
            }
            state.tail = Task { _ = await task.result }
            return task
        }
    }

    private func run(_ pixels: FrameImage, orientation: ImageOrientation) async throws -> [Face] {
        do {
            let session = try await openedSession()
            // Tracking needs a video's increasing timestamps: the detector makes them.
            let timestamp = state.withLock { state in
                state.lastTimestamp = max(state.lastTimestamp + 1, (ContinuousClock.now - origin).milliseconds)
                return state.lastTimestamp
            }
            let result = try await session.process(pixels.frame(timestampMs: options.runningMode == .video ? timestamp : 0, orientation: orientation))
            return result.faces.map(Face.init)
        } catch let error as FaceWorkerError {
            throw FaceDetectionError(error)
        }
    }

    private func openedSession() async throws -> FaceWorkerSession {
        if let session = state.withLock({ $0.session }) { return session }
        let path = socketPath ?? WorkerSocket.path()
        let client: FaceWorkerClient
        do {
            client = try await FaceWorkerClient.connect(socketPath: path, reconnect: reconnect)
        } catch let error as FaceWorkerError {
            throw error
        } catch {
            throw FaceWorkerError(code: .unavailable, message: "no worker answers at \(path) (start one with face-worker, or name its socket): \(error)")
        }
        do {
            let session = try await client.openSession(options: options)
            state.withLock { ($0.client, $0.session) = (client, session) }
            return session
        } catch {
            await client.close()
            throw error
        }
    }
}

extension Duration {
    /// The whole milliseconds.
    fileprivate var milliseconds: Int64 {
        components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
    }
}
