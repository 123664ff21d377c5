import FaceWorkerClient
import FaceWorkerProtocol
import Synchronization

/// A task's connection and its one session on the worker: what both tasks
/// share beneath MediaPipe's methods.
final class TaskSession: Sendable {
    let runningMode: RunningMode
    /// The names of each face's blendshape scores, in order.
    let blendshapeNames: [String]
    private let client: FaceWorkerClient
    private let session: FaceWorkerSession
    private let lastTimestamp = Mutex<Int?>(nil)
    private let inFlight = LiveFramesInFlight()

    private init(runningMode: RunningMode, client: FaceWorkerClient, session: FaceWorkerSession) {
        self.runningMode = runningMode
        self.client = client
        self.session = session
        blendshapeNames = session.blendshapeNames
    }

    /// Connects to the worker and opens the session `request` describes.
    static func open(_ request: SessionRequest) async throws -> TaskSession {
        let client: FaceWorkerClient
        let socketPath = request.socketPath ?? WorkerSocket.path()
        do {
            client = try await FaceWorkerClient.connect(socketPath: socketPath, reconnect: request.reconnect)
        } catch let error as FaceWorkerError {
            throw TasksError(error)
        } catch {
            throw TasksError(code: .unavailableError, message: "no worker answers at \(socketPath) (start one with face-worker, or name its socket): \(error)")
        }
        do {
            let options = try await request.resolvedOptions { try await client.stats().models.map(\.name) }
            let session = try await client.openSession(options: options)
            return TaskSession(runningMode: request.runningMode, client: client, session: session)
        } catch {
            await client.close()
            if let error = error as? FaceWorkerError { throw request.refusal(error) }
            throw error
        }
    }

    /// Fails unless the task was created in `mode`.
    func check(_ mode: RunningMode) throws(TasksError) {
        guard runningMode == mode else { throw .wrongRunningMode(wanted: mode, current: runningMode) }
    }

    /// Sends `image` and waits for its result.
    func process(_ image: MPImage, timestamp: Int) async throws(TasksError) -> Faceworker_V1_FrameResult {
        if runningMode != .image { try advance(to: timestamp) }
        do {
            return try await session.process(image.image.frame(timestampMs: Int64(timestamp), orientation: image.orientation))
        } catch let error as FaceWorkerError {
            throw TasksError(error)
        } catch {
            throw TasksError(code: .abortedError, message: "\(error)")
        }
    }

    /// Sends a live-stream frame; its outcome goes to ``deliver(to:)``'s
    /// handler.
    func send(_ image: MPImage, timestamp: Int) async throws(TasksError) {
        try advance(to: timestamp)
        inFlight.sent()
        do {
            try await session.send(image.image.frame(timestampMs: Int64(timestamp), orientation: image.orientation))
        } catch let error as FaceWorkerError {
            inFlight.settled()
            throw TasksError(error)
        } catch {
            inFlight.settled()
            throw TasksError(code: .unknownError, message: "\(error)")
        }
    }

    /// Hands each live-stream frame's outcome to `handler`, in the order the
    /// worker answers, until the session ends. A frame replaced by a newer
    /// one gets nothing, as in MediaPipe; a lost worker is told once, as an
    /// error, with the timestamp of the last frame sent.
    func deliver(to handler: @escaping @Sendable (Int, Result<Faceworker_V1_FrameResult, TasksError>) -> Void) -> Task<Void, Never> {
        Task { [self] in
            for await event in session.results {
                switch event {
                case .result(let result):
                    handler(Int(result.timestampMs), .success(result))
                    inFlight.settled()
                case .dropped:
                    inFlight.settled()
                case .failed(let timestamp, let error):
                    handler(Int(timestamp), .failure(TasksError(error)))
                    inFlight.settled()
                case .workerRestarted(let outage):
                    handler(lastTimestamp.withLock { $0 } ?? 0, .failure(TasksError(outage)))
                }
            }
            inFlight.end()
        }
    }

    /// A shared frame buffer registered on the task's connection, whose
    /// regions the task's images may name.
    func registerBuffer(size: Int) async throws(TasksError) -> SharedFrameBuffer {
        do {
            return try await client.registerBuffer(size: size)
        } catch let error as FaceWorkerError {
            throw TasksError(error)
        } catch {
            throw TasksError(code: .unknownError, message: "\(error)")
        }
    }

    /// Closes the session and the connection, once every live-stream frame
    /// sent has its outcome: the last frame is answered, not dropped.
    func close() async {
        await inFlight.untilSettled()
        try? await session.close()
        await client.close()
    }

    /// Timestamps must increase, as MediaPipe requires.
    private func advance(to timestamp: Int) throws(TasksError) {
        try lastTimestamp.withLock { (last: inout Int?) throws(TasksError) in
            if let previous = last, timestamp <= previous {
                throw TasksError(code: .invalidArgumentError, message: "Input timestamp must be monotonically increasing.")
            }
            last = timestamp
        }
    }
}

extension TasksError {
    /// A lost worker, as a live-stream delegate hears it once per outage.
    init(_ outage: WorkerOutage) {
        if let error = outage.error {
            self.init(code: TasksErrorCode(rawValue: error.code.rawValue) ?? .unavailableError,
                      message: "the worker was lost (\(outage.cause.message)) and the task gave up reconnecting: \(error.message)")
        } else {
            self.init(code: .unavailableError,
                      message: "the worker was lost (\(outage.cause.message)) for \(outage.duration); the task is back on a worker, tracking starts anew, and \(outage.droppedFrames) frames got no result")
        }
    }
}
