import FaceAnalysis
import FaceDetection
import FaceWorkerProtocol
import Logging
import MetricsHTTP
import NIOCore
import NIOEmbedded
@testable import SocketTransport
import WorkerCore
import WorkerCoreTesting
import XCTest

/// The models, loaded once for every in-process test: loading and packing
/// them is most of what starting a worker costs.
enum LoadedModels {
    static let analyzer = Result { try ModelAnalyzer(models: FaceModels(directory: TestPaths.models), threads: 2) }
    /// The model files as GetStats lists them.
    static let inventory = Result { try ModelInventory.describe(analyzer.get().models) }
}

/// The worker's core on the real models, in this process, with the lean
/// socket's handler in front of it on NIO's test channels: what a client
/// reads from a worker's socket, without a worker process. It counts in
/// metrics as a worker with a metrics endpoint does.
final class InProcessModelWorker {
    private let inProcess: InProcessCore
    private let metrics: PrometheusMetrics
    private let gate: FrameGate?
    /// Every connection made, closed by `stop()` so none outlives its test.
    private var channels: [NIOAsyncTestingChannel] = []

    /// A worker on the loaded models, its frames held at `gate` first when
    /// there is one.
    init(gate: FrameGate? = nil) throws {
        let models = try LoadedModels.analyzer.get()
        let inventory = try LoadedModels.inventory.get()
        metrics = PrometheusMetrics(models: inventory, errorCodes: Faceworker_V1_Status.Code.errorMetricLabels)
        inProcess = InProcessCore(analyzer: gate.map { GatedAnalyzer(models, gate: $0) } ?? models, models: inventory, metrics: metrics)
        self.gate = gate
    }

    /// A new client connection from a process of the worker's own user.
    func connect() async throws -> InProcessModelConnection {
        let channel = NIOAsyncTestingChannel()
        channels.append(channel)
        let uid: UInt32 = 1000
        let (core, connections) = (inProcess.core, inProcess.connections)
        try await channel.testingEventLoop.executeInContext {
            // Made on the channel's loop, where they live, so that none has to be Sendable.
            try channel.pipeline.syncOperations.addHandlers([
                ByteToMessageHandler(LengthPrefixedMessageDecoder(maximumMessageLength: core.limits.maxMessageBytes)),
                ConnectionDrainHandler(),
                ConnectionHandler(core: core, peerPolicy: PeerPolicy(workerUID: uid), connections: connections,
                                  peer: PeerCredentials(pid: 1, uid: uid, gid: uid),
                                  logger: Logger(label: "in-process") { _ in SwiftLogNoOpLogHandler() }),
            ])
        }
        try await channel.connect(to: SocketAddress(unixDomainSocketPath: "/in-process")).get()
        return InProcessModelConnection(channel: channel)
    }

    /// What a scrape of the metrics endpoint would be answered now.
    func exposition() -> String {
        String(decoding: metrics.exposition(inProcess.gauges.read()), as: UTF8.self)
    }

    /// Closes every connection, then stops the inference threads once they
    /// finish their frames (the frames a failed test left held included).
    func stop() async {
        for channel in channels where channel.isActive {
            try? await channel.close()
        }
        gate?.open()
        inProcess.stop()
    }
}

/// One client connection: calls out, the worker's messages back, in order.
final class InProcessModelConnection {
    private let channel: NIOAsyncTestingChannel
    private var reader = TestFrameReader()
    /// Above the small IDs tests write by hand in `send(all:)`, so the two never meet.
    private var nextCallID: UInt64 = 100

    fileprivate init(channel: NIOAsyncTestingChannel) {
        self.channel = channel
    }

    /// Sends every message in one read of the worker's, as a client's single write.
    func send(all messages: [Faceworker_V1_ClientMessage]) async throws {
        try await send(bytes: messages.flatMap { try TestFraming.frame($0) })
    }

    /// Sends `bytes` as they are, in one read of the worker's, whatever they hold.
    func send(bytes: [UInt8]) async throws {
        try await channel.writeInbound(channel.allocator.buffer(bytes: bytes))
    }

    /// The client hangs up, whatever it is still owed, unless the worker hung up first.
    func close() async throws {
        if channel.isActive { try await channel.close() }
    }

    /// Sends a call made by `message` with a fresh call ID, and returns the ID.
    @discardableResult
    func send(_ message: (UInt64) -> Faceworker_V1_ClientMessage) async throws -> UInt64 {
        nextCallID += 1
        try await send(all: [message(nextCallID)])
        return nextCallID
    }

    /// The worker's next message on this connection, when it comes.
    func receive() async throws -> Faceworker_V1_WorkerMessage {
        guard let message = try await next() else { throw ChannelError.ioOnClosedChannel }
        return message
    }

    /// The worker's next message on this connection, when it comes; nil once
    /// the connection has closed with nothing more written.
    func next() async throws -> Faceworker_V1_WorkerMessage? {
        while true {
            if let message = try reader.next() { return message }
            do {
                reader.append(try await channel.waitForOutboundWrite(as: ByteBuffer.self).readableBytesView)
            } catch ChannelError.ioOnClosedChannel {
                return nil
            }
        }
    }

    /// The answer to the call `message` makes.
    func call(_ message: (UInt64) -> Faceworker_V1_ClientMessage) async throws -> Faceworker_V1_WorkerMessage {
        let callID = try await send(message)
        let answer = try await receive()
        guard answer.callID == callID else { throw UnexpectedAnswer(description: "\(answer)") }
        return answer
    }

    /// Opens a session with `options` and returns its ID.
    func open(_ options: Faceworker_V1_SessionOptions) async throws -> UInt64 {
        try await openSession(options).sessionID
    }

    /// Opens a session with `options` and returns the worker's answer.
    func openSession(_ options: Faceworker_V1_SessionOptions, name: String? = nil) async throws -> Faceworker_V1_OpenSessionResponse {
        let answer = try await call { callID in
            var message = Faceworker_V1_ClientMessage.openSession(callID: callID, options)
            if let name { message.openSession.name = name }
            return message
        }
        guard case .openSession(let opened) = answer.kind else { throw UnexpectedAnswer(description: "\(answer)") }
        return opened
    }

    /// Asks for a session that must be refused, and returns the refusal.
    func refusedOpen(_ options: Faceworker_V1_SessionOptions) async throws -> Faceworker_V1_Status {
        let answer = try await call { .openSession(callID: $0, options) }
        guard case .error(let status) = answer.kind else { throw UnexpectedAnswer(description: "\(answer)") }
        return status
    }

    /// Subscribes to the session named `name` and returns the worker's answer.
    func subscribe(to name: String) async throws -> Faceworker_V1_SubscribeResponse {
        let answer = try await call { .subscribe(callID: $0, name: name) }
        guard case .subscribe(let subscribed) = answer.kind else { throw UnexpectedAnswer(description: "\(answer)") }
        return subscribed
    }

    /// Sends `frame` to `session` and returns its result.
    func process(_ frame: Faceworker_V1_Frame, in session: UInt64) async throws -> Faceworker_V1_FrameResult {
        let answer = try await call { .processFrame(callID: $0, session: session, frame) }
        guard case .frameResult(let result) = answer.kind else { throw UnexpectedAnswer(description: "\(answer)") }
        return result
    }

    /// Sends `frame` to `session`, which must refuse it, and returns the refusal.
    func refusal(of frame: Faceworker_V1_Frame, in session: UInt64) async throws -> Faceworker_V1_Status {
        let answer = try await call { .processFrame(callID: $0, session: session, frame) }
        guard case .error(let status) = answer.kind else { throw UnexpectedAnswer(description: "\(answer)") }
        return status
    }

    /// What GetStats answers, on a connection with nothing else on its way.
    func stats() async throws -> Faceworker_V1_GetStatsResponse {
        let answer = try await call { .getStats(callID: $0) }
        guard case .getStats(let stats) = answer.kind else { throw UnexpectedAnswer(description: "\(answer)") }
        return stats
    }
}

/// A test case whose worker runs in-process on the real models, and is
/// stopped when the test ends.
class InProcessModelTestCase: XCTestCase {
    private var worker: InProcessModelWorker?

    /// Starts the test's worker, its frames held at `gate` first when there is one.
    func startInProcessWorker(gate: FrameGate? = nil) throws -> InProcessModelWorker {
        let worker = try InProcessModelWorker(gate: gate)
        self.worker = worker
        return worker
    }

    override func tearDown() async throws {
        await worker?.stop()
        worker = nil
        try await super.tearDown()
    }
}
