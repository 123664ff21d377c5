@testable import SocketTransport
@testable import WorkerCore
import CLibFuzzer
import FaceAnalysis
import FaceDetection
import FaceWorkerProtocol
import Foundation
import Logging
import NIOCore
import NIOEmbedded
import SocketTransport
import WorkerCore

/// A whole connection of the worker's own socket on an embedded channel: the
/// input is everything a client sends (length-prefixed ClientMessages:
/// sessions opened, frames, closes, pings, stats, subscriptions, shared
/// buffers registered and forgotten, or broken framing), read through the
/// same pipeline the socket door builds, then the connection closes.
///
/// The models are the worker's: FACEWORKER_MODELS names their directory
/// (models/ by default). Frames wait in the scheduler and no inference thread
/// takes them, so an input costs its parsing and bookkeeping, not inference.
///
/// What outlives the inputs: the models, loaded once as a worker loads them.
/// Static, so initialised on the first input, once libFuzzer's driver has
/// started (the last line of this file).
private enum Fuzz {
    static let models = try! FaceModels(directory: ProcessInfo.processInfo.environment["FACEWORKER_MODELS"] ?? "models")
    static let analyzer = try! ModelAnalyzer(models: models, threads: 1)
    static let inventory = try! ModelInventory.describe(models)
    static let limits = WorkerLimits()
    static let policy = PeerPolicy(workerUID: 1000)
    static let logger = Logger(label: "fuzz") { _ in SwiftLogNoOpLogHandler() }
}

/// A worker's state as WorkerParts assembles it, without its threads and
/// sockets: new for each input, so session IDs start again at 1 and the
/// seeds' frames find the sessions they opened.
private func makeCore(connections: ConnectionRegistry) -> WorkerCore {
    let scheduler = FrameScheduler()
    let namedSessions = NamedSessions()
    let sharedMemory = SharedMemory(address: HandoffAddress("@faceworker-fuzz")!, tokenLifetime: .seconds(5))
    let stats = FrameCounters(metrics: nil)
    let gauges = GaugeSources(connections: connections, scheduler: scheduler, namedSessions: namedSessions, sharedMemory: sharedMemory)
    let statistics = StatsReport(stats: stats, inferenceThreads: 1, models: Fuzz.inventory, started: .now,
                                      gauges: gauges.read, eventsMissed: { namedSessions.eventsMissed })
    return WorkerCore(limits: Fuzz.limits, analyzer: Fuzz.analyzer, scheduler: scheduler, namedSessions: namedSessions,
                      sharedMemory: sharedMemory, stats: stats, statistics: statistics)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConnection(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let connections = ConnectionRegistry()
    let core = makeCore(connections: connections)
    let channel = EmbeddedChannel()
    try! channel.pipeline.syncOperations.addHandlers([
        ByteToMessageHandler(LengthPrefixedMessageDecoder(maximumMessageLength: Fuzz.limits.maxMessageBytes)),
        ConnectionHandler(core: core, peerPolicy: Fuzz.policy, connections: connections,
                          peer: PeerCredentials(pid: 1, uid: 1000, gid: 1000), logger: Fuzz.logger),
    ])
    channel.pipeline.fireChannelActive()
    var bytes = channel.allocator.buffer(capacity: count)
    bytes.writeBytes(UnsafeBufferPointer(start: start, count: count))
    // A client that breaks the framing is answered and closed; what it sent after is not read.
    try? channel.writeInbound(bytes)
    channel.embeddedEventLoop.run()
    while (try? channel.readOutbound(as: ByteBuffer.self)) != nil {}
    // After broken framing the worker has hung up already, and scheduled the close that ends a
    // client that keeps sending for a second later. finish must accept the closed channel, or it
    // throws before it cancels that timer: the timer holds the channel, the channel its loop, and
    // the loop the timer, so the whole connection would outlive the input. On a real event loop
    // the timer fires and lets go.
    _ = try? channel.finish(acceptAlreadyClosed: true)
    channel.embeddedEventLoop.run()
    return 0
}

libfuzzer_main(CommandLine.argc, CommandLine.unsafeArgv)
