import FaceWorkerProtocol
import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// A connection to a face-worker: the Swift way in.
///
/// ```swift
/// let client = try await FaceWorkerClient.connect()
/// var options = Faceworker_V1_SessionOptions()
/// options.landmarkMode = .all
/// let session = try await client.openSession(options: options)
/// let result = try await session.process(.jpeg(try Data(contentsOf: photo)))
/// print(result.faces.map(\.boundingBox))
/// try await session.close()
/// await client.close()
/// ```
///
/// One connection carries any number of calls at once, from any task: each
/// call waits only for its own answer.
public final class FaceWorkerClient: Sendable {
    private let channel: any Channel
    private let router: ResponseRouter
    private let lastCallID = Atomic<UInt64>(0)

    private init(channel: any Channel, router: ResponseRouter) {
        self.channel = channel
        self.router = router
    }

    /// Connects to the worker listening on `socketPath`.
    ///
    /// - Parameters:
    ///   - socketPath: the worker's socket; by default the worker's own rule
    ///     (``WorkerSocket/path(explicit:environment:uid:)``):
    ///     `$FACEWORKER_SOCKET`, else `$XDG_RUNTIME_DIR/faceworker.sock`, else
    ///     `/tmp/faceworker-<uid>.sock`.
    ///   - maxMessageBytes: the longest answer accepted.
    public static func connect(socketPath: String = WorkerSocket.path(), maxMessageBytes: Int = WorkerSocket.maxAnswerBytes) async throws -> FaceWorkerClient {
        let router = ResponseRouter()
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandlers(
                        ByteToMessageHandler(LengthPrefixedMessageDecoder(maximumMessageLength: maxMessageBytes)),
                        MessageToByteHandler(LengthPrefixedMessageEncoder<Faceworker_V1_ClientMessage>()),
                        ClientHandler(router: router))
                }
            }
            .connect(unixDomainSocketPath: socketPath)
            .get()
        return FaceWorkerClient(channel: channel, router: router)
    }

    /// Closes the connection; the worker frees its sessions.
    public func close() async {
        try? await channel.close().get()
    }

    /// Sends a ping and returns the worker's echo of `payload`.
    @discardableResult
    public func ping(payload: Data = Data()) async throws -> Data {
        var request = Faceworker_V1_PingRequest()
        request.payload = payload
        guard case .ping(let response) = try await call(.ping(request)) else { throw Self.unexpectedAnswer }
        return response.payload
    }

    /// The worker's counters, latencies and memory.
    public func stats() async throws -> Faceworker_V1_GetStatsResponse {
        guard case .getStats(let response) = try await call(.getStats(Faceworker_V1_GetStatsRequest())) else { throw Self.unexpectedAnswer }
        return response
    }

    /// Opens a session with `options` (unset fields take their defaults).
    ///
    /// - Parameter name: shares the session under this name, which other
    ///   connections pass to ``subscribe(to:)``: 1 to 128 bytes of UTF-8
    ///   without control characters, unique among the worker's open
    ///   sessions (ALREADY_EXISTS otherwise). Nil: a private session.
    public func openSession(options: Faceworker_V1_SessionOptions = Faceworker_V1_SessionOptions(), name: String? = nil) async throws -> FaceWorkerSession {
        var request = Faceworker_V1_OpenSessionRequest()
        request.options = options
        if let name { request.name = name }
        guard case .openSession(let response) = try await call(.openSession(request)) else { throw Self.unexpectedAnswer }
        return FaceWorkerSession(client: self, response: response)
    }

    /// Follows the session another connection opened with `name`: every
    /// answer its frames get arrives on the returned sequence.
    ///
    /// - Throws: `FaceWorkerError`: NOT_FOUND when no open session has the
    ///   name, FAILED_PRECONDITION when it is this connection's own,
    ///   RESOURCE_EXHAUSTED past the worker's subscription limits.
    public func subscribe(to name: String) async throws -> FaceWorkerSubscription {
        var request = Faceworker_V1_SubscribeRequest()
        request.name = name
        let message = makeMessage(.subscribe(request))
        let (events, continuation) = AsyncThrowingStream.makeStream(of: SubscriptionEvent.self, throwing: (any Error).self, bufferingPolicy: .unbounded)
        let ending = SubscriptionEnding()
        router.addSubscription(message.callID, continuation, ending: ending)
        do {
            guard case .subscribe(let response) = try await send(message) else { throw Self.unexpectedAnswer }
            return FaceWorkerSubscription(client: self, response: response, events: events, ending: ending)
        } catch {
            router.finishSubscription(message.callID)
            throw error
        }
    }

    /// Sends one call and waits for its answer.
    ///
    /// - Returns: the answer's kind.
    /// - Throws: `FaceWorkerError` when the worker answers with a status or the
    ///   connection closes first; `FrameDroppedError` when a frame is dropped.
    public func call(_ kind: Faceworker_V1_ClientMessage.OneOf_Kind) async throws -> Faceworker_V1_WorkerMessage.OneOf_Kind {
        try await send(makeMessage(kind))
    }

    private func send(_ message: Faceworker_V1_ClientMessage) async throws -> Faceworker_V1_WorkerMessage.OneOf_Kind {
        let answer = try await withCheckedThrowingContinuation { continuation in
            if let error = router.expect(message.callID, continuation) {
                continuation.resume(throwing: error)
                return
            }
            write(message) { error in self.router.abandon(message.callID, with: error) }
        }
        switch answer.kind {
        case .error(let status): throw FaceWorkerError(status)
        case .frameDropped(let dropped): throw FrameDroppedError(dropped)
        case let kind?: return kind
        case nil: throw Self.unexpectedAnswer
        }
    }

    /// Sends a live-stream frame whose answer goes to its session's results,
    /// and returns once the request is written.
    func stream(_ request: Faceworker_V1_ProcessFrameRequest) async throws {
        let message = makeMessage(.processFrame(request))
        if let error = router.stream(message.callID, sessionID: request.sessionID, timestampMs: request.frame.timestampMs) {
            throw error
        }
        try await channel.writeAndFlush(message).get()
    }

    /// Registers a session's results stream.
    func addStream(_ sessionID: UInt64, _ continuation: AsyncStream<LiveStreamEvent>.Continuation) {
        router.addStream(sessionID, continuation)
    }

    /// Ends a session's results stream.
    func finishStream(_ sessionID: UInt64) {
        router.finishStream(sessionID)
    }

    private func makeMessage(_ kind: Faceworker_V1_ClientMessage.OneOf_Kind) -> Faceworker_V1_ClientMessage {
        var message = Faceworker_V1_ClientMessage()
        message.callID = lastCallID.add(1, ordering: .relaxed).newValue
        message.kind = kind
        return message
    }

    private func write(_ message: Faceworker_V1_ClientMessage, onFailure: @escaping @Sendable (any Error) -> Void) {
        channel.writeAndFlush(message).whenFailure { error in
            onFailure(self.router.closedWith ?? FaceWorkerError(code: .unavailable, message: "cannot send to the worker: \(error)"))
        }
    }

    private static let unexpectedAnswer = FaceWorkerError(code: .internal, message: "the worker answered with an unexpected message kind")
}
