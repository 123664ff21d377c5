import FaceWorkerProtocol
import Foundation

/// One session on a worker: a stream of frames with its options and tracking
/// state.
///
/// In image and video mode, `process` sends a frame and waits for its result.
/// In live-stream mode, `send` returns as soon as the frame is written, and
/// every frame's outcome (result, drop or error) arrives on `results`.
public struct FaceWorkerSession: Sendable {
    /// The worker's ID for the session.
    public let id: UInt64
    /// The options in effect, every default filled in.
    public let options: Faceworker_V1_SessionOptions
    /// The name other connections subscribe to it by; nil for a private session.
    public let name: String?
    /// With `outputFaceBlendshapes`, the names of each face's
    /// `blendshapes` scores, in order (MediaPipe's 52 category names); empty
    /// otherwise. Pass them to `Faceworker_V1_Face.blendshapes(named:)`.
    public let blendshapeNames: [String]
    /// The outcome of every frame sent with `send`, in the order the worker
    /// answers; ends when the session is closed or the connection ends.
    public let results: AsyncStream<LiveStreamEvent>
    private let client: FaceWorkerClient

    init(client: FaceWorkerClient, response: Faceworker_V1_OpenSessionResponse) {
        self.client = client
        id = response.sessionID
        options = response.options
        name = response.name.isEmpty ? nil : response.name
        blendshapeNames = response.blendshapeNames
        let (results, continuation) = AsyncStream.makeStream(of: LiveStreamEvent.self, bufferingPolicy: .unbounded)
        self.results = results
        client.addStream(response.sessionID, continuation)
    }

    /// Sends a frame and waits for its result.
    ///
    /// - Throws: `FaceWorkerError` when the worker refuses the frame,
    ///   `FrameDroppedError` when it drops it unprocessed.
    public func process(_ frame: Faceworker_V1_Frame) async throws -> Faceworker_V1_FrameResult {
        guard case .frameResult(let result) = try await client.call(.processFrame(request(frame))) else {
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
    public func send(_ frame: Faceworker_V1_Frame) async throws {
        try await client.stream(request(frame))
    }

    /// Sends a JPEG file's bytes as a live-stream frame (see `send(_:)`).
    public func send(jpeg: Data, timestampMs: Int64, orientation: Faceworker_V1_Orientation = .topLeft) async throws {
        try await send(.jpeg(jpeg, timestampMs: timestampMs, orientation: orientation))
    }

    /// Forgets tracked faces and the last timestamp; frames still waiting are
    /// dropped.
    public func reset() async throws {
        var request = Faceworker_V1_ResetSessionRequest()
        request.sessionID = id
        _ = try await client.call(.resetSession(request))
    }

    /// Closes the session once every earlier frame is answered, and ends
    /// `results`.
    public func close() async throws {
        var request = Faceworker_V1_CloseSessionRequest()
        request.sessionID = id
        defer { client.finishStream(id) }
        _ = try await client.call(.closeSession(request))
    }

    private func request(_ frame: Faceworker_V1_Frame) -> Faceworker_V1_ProcessFrameRequest {
        var request = Faceworker_V1_ProcessFrameRequest()
        request.sessionID = id
        request.frame = frame
        return request
    }
}
