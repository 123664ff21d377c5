import FaceWorkerProtocol
import Foundation
import Logging
import NIOCore
import NIOEmbedded
@testable import SocketTransport
@testable import WorkerCore
import WorkerCoreTesting

/// The core in-process with the lean socket's pipeline in front of it:
/// connections are NIO test channels, so a test sends a client's bytes and
/// waits for the worker's answers as events.
final class InProcessWorker {
    private let inProcess: InProcessCore
    /// Every connection made, closed by `stop()` so none outlives its test.
    private var channels: [NIOAsyncTestingChannel] = []
    private let logger = Logger(label: "in-process") { _ in SwiftLogNoOpLogHandler() }

    var core: WorkerCore { inProcess.core }
    var connections: ConnectionRegistry { inProcess.connections }

    init(limits: WorkerLimits = WorkerLimits(), analyzer: FakeAnalyzer = FakeAnalyzer()) {
        inProcess = InProcessCore(limits: limits, analyzer: analyzer)
    }

    /// A new client connection from a process of the worker's own user.
    func connect() async throws -> InProcessConnection {
        let channel = NIOAsyncTestingChannel()
        channels.append(channel)
        let uid: UInt32 = 1000
        try await channel.pipeline.addHandlers([
            ByteToMessageHandler(LengthPrefixedMessageDecoder(maximumMessageLength: core.limits.maxMessageBytes)),
            ConnectionDrainHandler(),
            ConnectionHandler(core: core, peerPolicy: PeerPolicy(workerUID: uid), connections: connections,
                              peer: PeerCredentials(pid: 1, uid: uid, gid: uid), logger: logger),
        ])
        try await channel.connect(to: SocketAddress(unixDomainSocketPath: "/in-process")).get()
        return InProcessConnection(channel: channel)
    }

    /// Closes every connection, then stops the inference threads once they
    /// finish their frames.
    func stop() async {
        for channel in channels where channel.isActive {
            try? await channel.close()
        }
        inProcess.stop()
    }
}

/// One client connection: calls out, the worker's messages back, in order.
struct InProcessConnection {
    let channel: NIOAsyncTestingChannel
    private var nextCallID: UInt64 = 0

    init(channel: NIOAsyncTestingChannel) {
        self.channel = channel
    }

    /// Sends a call and returns its ID.
    @discardableResult
    mutating func send(_ kind: Faceworker_V1_ClientMessage.OneOf_Kind) async throws -> UInt64 {
        nextCallID += 1
        var message = Faceworker_V1_ClientMessage()
        message.callID = nextCallID
        message.kind = kind
        var bytes = channel.allocator.buffer(capacity: 64)
        try LengthPrefixedMessageEncoder().encode(data: message, out: &bytes)
        try await channel.writeInbound(bytes)
        return nextCallID
    }

    /// Sends bytes as they are, whatever they hold.
    func sendRaw(_ bytes: [UInt8]) async throws {
        try await channel.writeInbound(channel.allocator.buffer(bytes: bytes))
    }

    /// The worker's next message on this connection, when it comes.
    func receive() async throws -> Faceworker_V1_WorkerMessage {
        var bytes = try await channel.waitForOutboundWrite(as: ByteBuffer.self)
        let decoder = LengthPrefixedMessageDecoder(maximumMessageLength: WorkerSocket.maxAnswerBytes)
        guard let payload = try decoder.nextPayload(from: &bytes) else { throw IncompleteAnswer() }
        return try Faceworker_V1_WorkerMessage(serializedBytes: Array(payload.readableBytesView))
    }

    /// Opens a session with `options` and returns its ID.
    mutating func open(_ options: Faceworker_V1_SessionOptions, name: String? = nil) async throws -> UInt64 {
        let answer = try await openAnswer(options, name: name)
        guard case .openSession(let opened) = answer.kind else { throw UnexpectedAnswer(answer) }
        return opened.sessionID
    }

    /// Asks for a session that must be refused, and returns the refusal.
    mutating func refusedOpen(_ options: Faceworker_V1_SessionOptions, name: String? = nil) async throws -> Faceworker_V1_Status {
        let answer = try await openAnswer(options, name: name)
        guard case .error(let status) = answer.kind else { throw UnexpectedAnswer(answer) }
        return status
    }

    private mutating func openAnswer(_ options: Faceworker_V1_SessionOptions, name: String?) async throws -> Faceworker_V1_WorkerMessage {
        var request = Faceworker_V1_OpenSessionRequest()
        request.options = options
        if let name { request.name = name }
        try await send(.openSession(request))
        return try await receive()
    }

    /// Sends a `width` x `height` RGB frame stamped `timestampMs` to `session`.
    @discardableResult
    mutating func sendFrame(to session: UInt64, timestampMs: Int64, width: UInt32 = 4, height: UInt32 = 2,
                            bytes: Int? = nil) async throws -> UInt64 {
        var raw = Faceworker_V1_RawImage()
        raw.format = .rgb
        raw.width = width
        raw.height = height
        raw.rowStride = width * 3
        raw.data = Data(count: bytes ?? Int(width) * Int(height) * 3)
        var frame = Faceworker_V1_Frame()
        frame.raw = raw
        frame.timestampMs = timestampMs
        return try await send(frame, to: session)
    }

    /// Sends `frame` to `session`.
    @discardableResult
    mutating func send(_ frame: Faceworker_V1_Frame, to session: UInt64) async throws -> UInt64 {
        var request = Faceworker_V1_ProcessFrameRequest()
        request.sessionID = session
        request.frame = frame
        return try await send(.processFrame(request))
    }

    /// The refusal of the call just sent; fails the test's expectation by throwing otherwise.
    func refusal() async throws -> Faceworker_V1_Status {
        let answer = try await receive()
        guard case .error(let status) = answer.kind else { throw UnexpectedAnswer(answer) }
        return status
    }

    /// Sends a small frame to `session` and returns its result.
    mutating func result(of session: UInt64, timestampMs: Int64) async throws -> Faceworker_V1_FrameResult {
        try await sendFrame(to: session, timestampMs: timestampMs)
        let answer = try await receive()
        guard case .frameResult(let result) = answer.kind else { throw UnexpectedAnswer(answer) }
        return result
    }
}

struct IncompleteAnswer: Error {}

struct UnexpectedAnswer: Error, CustomStringConvertible {
    let message: Faceworker_V1_WorkerMessage
    init(_ message: Faceworker_V1_WorkerMessage) { self.message = message }
    var description: String { "unexpected answer: \(message)" }
}
