import FaceWorkerProtocol
import Foundation
import Logging
import NIOCore
import NIOEmbedded
@testable import SocketTransport
import Synchronization
@testable import WorkerCore
import WorkerCoreTesting

/// The core in-process with the lean socket's pipeline in front of it:
/// connections are NIO test channels, so a test sends a client's bytes and
/// waits for the worker's answers as events.
final class InProcessWorker {
    private let inProcess: InProcessCore
    private let analyzer: FakeAnalyzer
    /// Every connection made, closed by `stop()` so none outlives its test.
    private var channels: [NIOAsyncTestingChannel] = []
    /// What the connections logged, the lines an operator reads.
    let log = LogRecords()
    private let logger: Logger

    var core: WorkerCore { inProcess.core }
    var connections: ConnectionRegistry { inProcess.connections }

    init(limits: WorkerLimits = WorkerLimits(), analyzer: FakeAnalyzer = FakeAnalyzer()) {
        inProcess = InProcessCore(limits: limits, analyzer: analyzer)
        self.analyzer = analyzer
        logger = Logger(label: "in-process") { [log] _ in RecordingLogHandler(records: log) }
    }

    /// A new client connection from a process of the worker's own user; with
    /// `reading` false, its client reads nothing until `startReading()`.
    func connect(reading: Bool = true) async throws -> InProcessConnection {
        let channel = NIOAsyncTestingChannel()
        channels.append(channel)
        let uid: UInt32 = 1000
        let (core, connections, logger) = (core, connections, logger)
        try await channel.testingEventLoop.executeInContext {
            // Made on the channel's loop, where they live, so that none has to be Sendable.
            var handlers: [any ChannelHandler] = reading ? [] : [UnreadWrites()]
            handlers += [
                ByteToMessageHandler(LengthPrefixedMessageDecoder(maximumMessageLength: core.limits.maxMessageBytes)),
                ConnectionDrainHandler(),
                ConnectionHandler(core: core, peerPolicy: PeerPolicy(workerUID: uid), connections: connections,
                                  peer: PeerCredentials(pid: 1, uid: uid, gid: uid), logger: logger),
            ]
            try channel.pipeline.syncOperations.addHandlers(handlers)
        }
        try await channel.connect(to: SocketAddress(unixDomainSocketPath: "/in-process")).get()
        return InProcessConnection(channel: channel)
    }

    /// Closes every connection, then stops the inference threads once they
    /// finish their frames (the frames a failed test left held included).
    func stop() async {
        for channel in channels where channel.isActive {
            try? await channel.close()
        }
        analyzer.gate?.open()
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

    /// The worker's messages until every call in `calls` has been answered, in order.
    func receive(answering calls: Set<UInt64>) async throws -> [Faceworker_V1_WorkerMessage] {
        var waiting = calls
        var messages: [Faceworker_V1_WorkerMessage] = []
        while !waiting.isEmpty {
            let message = try await receive()
            messages.append(message)
            waiting.remove(message.callID)
        }
        return messages
    }

    /// A subscriber's events up to and including its subscription's end.
    func eventsUntilEnded() async throws -> [Faceworker_V1_SessionEvent] {
        var events: [Faceworker_V1_SessionEvent] = []
        while true {
            let message = try await receive()
            guard case .sessionEvent(let event) = message.kind else { throw UnexpectedAnswer(message) }
            events.append(event)
            if case .sessionEnded? = event.event { return events }
        }
    }

    /// The client starts reading what the worker wrote to a connection made
    /// with `reading` false.
    func startReading() async throws {
        try await channel.pipeline.triggerUserOutboundEvent(UnreadWrites.StartReading()).get()
    }

    /// Opens a session with `options` and returns its ID.
    mutating func open(_ options: Faceworker_V1_SessionOptions, name: String? = nil) async throws -> UInt64 {
        try await opened(options, name: name).sessionID
    }

    /// Opens a session with `options` and returns the worker's answer.
    mutating func opened(_ options: Faceworker_V1_SessionOptions, name: String? = nil) async throws -> Faceworker_V1_OpenSessionResponse {
        let answer = try await openAnswer(options, name: name)
        guard case .openSession(let opened) = answer.kind else { throw UnexpectedAnswer(answer) }
        return opened
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

    /// Sends a CloseSession for `session` and returns its call ID.
    @discardableResult
    mutating func sendClose(_ session: UInt64) async throws -> UInt64 {
        var close = Faceworker_V1_CloseSessionRequest()
        close.sessionID = session
        return try await send(.closeSession(close))
    }

    /// Sends a Subscribe to the session named `name` and returns its call ID.
    @discardableResult
    mutating func sendSubscribe(to name: String) async throws -> UInt64 {
        var request = Faceworker_V1_SubscribeRequest()
        request.name = name
        return try await send(.subscribe(request))
    }

    /// Subscribes to the session named `name` and returns the worker's answer.
    mutating func subscribe(to name: String) async throws -> Faceworker_V1_SubscribeResponse {
        try await sendSubscribe(to: name)
        let answer = try await receive()
        guard case .subscribe(let subscribed) = answer.kind else { throw UnexpectedAnswer(answer) }
        return subscribed
    }

    /// Asks for a subscription that must be refused, and returns the refusal.
    mutating func refusedSubscribe(to name: String) async throws -> Faceworker_V1_Status {
        try await sendSubscribe(to: name)
        return try await refusal()
    }

    /// What GetStats answers, on a connection with nothing else on its way.
    mutating func stats() async throws -> Faceworker_V1_GetStatsResponse {
        try await send(.getStats(Faceworker_V1_GetStatsRequest()))
        let answer = try await receive()
        guard case .getStats(let stats) = answer.kind else { throw UnexpectedAnswer(answer) }
        return stats
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

/// A client that does not read, nearest the socket in the pipeline, where the
/// kernel holds the bytes: the kernel would take none of the worker's bytes
/// once its buffers are full, so here no write completes at all until the
/// client starts reading. What the worker holds for such a client is
/// then what it decided to hold, not what a buffer happened to take.
private final class UnreadWrites: ChannelOutboundHandler {
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// The client starts reading: every write held goes out, and those after it.
    struct StartReading: Sendable {}

    private var held: [(ByteBuffer, EventLoopPromise<Void>?)] = []
    private var reading = false

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard reading else {
            held.append((unwrapOutboundIn(data), promise))
            return
        }
        context.write(data, promise: promise)
    }

    func flush(context: ChannelHandlerContext) {
        if reading { context.flush() }
    }

    func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        guard event is StartReading else { return context.triggerUserOutboundEvent(event, promise: promise) }
        reading = true
        for (bytes, writePromise) in held {
            context.write(wrapOutboundOut(bytes), promise: writePromise)
        }
        held = []
        context.flush()
        promise?.succeed()
    }

    /// Writes still held when the connection closes never reach the client.
    func handlerRemoved(context: ChannelHandlerContext) {
        for (_, promise) in held {
            promise?.fail(ChannelError.ioOnClosedChannel)
        }
        held = []
    }
}

/// The lines the worker logged, with their metadata.
final class LogRecords: Sendable {
    /// One line.
    struct Line: Sendable {
        var message: String
        var metadata: Logger.Metadata
    }

    private let lines = Mutex<[Line]>([])

    func append(_ line: Line) {
        lines.withLock { $0.append(line) }
    }

    /// The lines logged with `message`.
    func lines(_ message: String) -> [Line] {
        lines.withLock { $0.filter { $0.message == message } }
    }
}

/// Keeps every line logged in `records`.
private struct RecordingLogHandler: LogHandler {
    let records: LogRecords
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        records.append(LogRecords.Line(message: event.message.description, metadata: metadata.merging(event.metadata ?? [:]) { _, new in new }))
    }
}

struct IncompleteAnswer: Error {}

struct UnexpectedAnswer: Error, CustomStringConvertible {
    let message: Faceworker_V1_WorkerMessage
    init(_ message: Faceworker_V1_WorkerMessage) { self.message = message }
    var description: String { "unexpected answer: \(message)" }
}
