import FaceWorkerProtocol
import Foundation

/// One session on a worker: a stream of frames with its options and tracking
/// state.
///
/// In image and video mode, `process` sends a frame and waits for its result.
/// In live-stream mode, `send` returns as soon as the frame is written, and
/// every frame's outcome (result, drop or error) arrives on `results`.
///
/// When its client reconnects to a restarted worker, the session is opened
/// there again with the same options and name, under a new `id`, and
/// `results` gets a `.workerRestarted` event: tracking starts anew.
package struct FaceWorkerSession: Sendable {
    /// The worker's ID for the session (a new one after a reconnect).
    public var id: UInt64 { record.id }
    /// The options in effect, every default filled in.
    public let options: Faceworker_V1_SessionOptions
    /// The name other connections subscribe to it by; nil for a private session.
    public let name: String?
    /// With `outputFaceBlendshapes`, the names of each face's
    /// `blendshapes` scores, in order (MediaPipe's 52 category names); empty
    /// otherwise. Pass them to `Faceworker_V1_Face.blendshapes(named:)`.
    public let blendshapeNames: [String]
    /// The outcome of every frame sent with `send`, in the order the worker
    /// answers, and the client's worker restarts; ends when the session is
    /// closed or the connection ends for good.
    public let results: AsyncStream<LiveStreamEvent>
    private let client: FaceWorkerClient
    private let record: SessionRecord

    init(client: FaceWorkerClient, record: SessionRecord, response: Faceworker_V1_OpenSessionResponse, results: AsyncStream<LiveStreamEvent>) {
        self.client = client
        self.record = record
        options = response.options
        name = response.name.isEmpty ? nil : response.name
        blendshapeNames = response.blendshapeNames
        self.results = results
    }

    /// Sends a frame and waits for its result.
    ///
    /// - Throws: `FaceWorkerError` when the worker refuses the frame,
    ///   `FrameDroppedError` when it drops it unprocessed. UNAVAILABLE when
    ///   the worker went away before answering; a client that reconnects
    ///   sends the next frame to the new worker.
    public func process(_ frame: Faceworker_V1_Frame) async throws -> Faceworker_V1_FrameResult {
        guard case .frameResult(let result) = try await client.call(frameOf: record, { .processFrame(request(frame)) }) else {
            throw FaceWorkerError(code: .internal, message: "the worker answered a frame with an unexpected message kind")
        }
        return result
    }

    /// Sends a JPEG file's bytes and waits for the result.
    public func process(jpeg: Data, timestampMs: Int64 = 0, orientation: Faceworker_V1_Orientation = .topLeft) async throws -> Faceworker_V1_FrameResult {
        try await process(.jpeg(jpeg, timestampMs: timestampMs, orientation: orientation))
    }

    /// Sends a live-stream frame without waiting for its result, which
    /// arrives on `results`; returns once the frame is written to the socket.
    ///
    /// While the client reconnects to a restarted worker, the frame is
    /// reported at once as dropped (`REASON_WORKER_RESTARTED`).
    public func send(_ frame: Faceworker_V1_Frame) async throws {
        try await client.stream(record, frame)
    }

    /// Sends a JPEG file's bytes as a live-stream frame (see `send(_:)`).
    public func send(jpeg: Data, timestampMs: Int64, orientation: Faceworker_V1_Orientation = .topLeft) async throws {
        try await send(.jpeg(jpeg, timestampMs: timestampMs, orientation: orientation))
    }

    /// Forgets tracked faces and the last timestamp; frames still waiting are
    /// dropped.
    public func reset() async throws {
        _ = try await client.call {
            var request = Faceworker_V1_ResetSessionRequest()
            request.sessionID = id
            return .resetSession(request)
        }
    }

    /// Closes the session once every earlier frame is answered, and ends
    /// `results`.
    public func close() async throws {
        defer { client.closed(record) }
        _ = try await client.call {
            var request = Faceworker_V1_CloseSessionRequest()
            request.sessionID = id
            return .closeSession(request)
        }
    }

    private func request(_ frame: Faceworker_V1_Frame) -> Faceworker_V1_ProcessFrameRequest {
        var request = Faceworker_V1_ProcessFrameRequest()
        request.sessionID = id
        request.frame = frame
        return request
    }
}
