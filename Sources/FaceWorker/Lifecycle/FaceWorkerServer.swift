import FaceDetection
import FaceWorkerProtocol
import Foundation
import Logging
import NIOCore
import NIOPosix

/// A running worker: the socket, the event loop serving connections, and the
/// inference threads.
///
/// ```swift
/// let server = try await FaceWorkerServer.start(configuration: configuration, logger: logger)
/// await server.runUntilTerminated()   // returns after SIGTERM or SIGINT, shut down
/// ```
public final class FaceWorkerServer: Sendable {
    /// How long shutdown waits for frames in flight before it closes the
    /// connections anyway; the whole shutdown stays well under 2 s.
    static let drainTimeout = Duration.milliseconds(1500)

    /// The worker's configuration.
    public var configuration: WorkerConfiguration { context.configuration }
    private let context: WorkerContext
    private let group: MultiThreadedEventLoopGroup
    private let listener: any Channel
    private let socketFile: SocketFile
    private let pool: InferencePool
    private let signals: TerminationSignals

    private init(context: WorkerContext, group: MultiThreadedEventLoopGroup, listener: any Channel, socketFile: SocketFile,
                 pool: InferencePool, signals: TerminationSignals) {
        self.context = context
        self.group = group
        self.listener = listener
        self.socketFile = socketFile
        self.pool = pool
        self.signals = signals
    }

    /// Loads the models, publishes the socket and starts serving.
    ///
    /// - Throws: `WorkerStartupError` when a live worker already answers on
    ///   the socket, a model cannot be loaded, the socket cannot be created,
    ///   or a configuration value is out of range.
    public static func start(configuration: WorkerConfiguration, logger: Logger) async throws -> FaceWorkerServer {
        try configuration.validate()
        // Refuse early, before the models are loaded, when a worker is already there.
        if try SocketProbe.probe(configuration.socketPath) == .live {
            throw WorkerStartupError("a worker already answers on \(configuration.socketPath); stop it first or choose another --socket")
        }
        let clock = ContinuousClock()
        let loadStart = clock.now
        let models: FaceModels
        do {
            models = try FaceModels(directory: configuration.modelsDirectory)
        } catch {
            throw WorkerStartupError("cannot load the models from \(configuration.modelsDirectory): \(error); `make models` fetches them")
        }
        // With more than one inference thread, a frame that runs alone may use them all.
        let splitEngine: SplitEngine?
        do {
            splitEngine = configuration.inferenceThreads > 1 ? try SplitEngine(models: models, threads: configuration.inferenceThreads) : nil
        } catch {
            throw WorkerStartupError("cannot start the inference threads: \(error)")
        }
        let inventory = try ModelInventory.describe(directory: configuration.modelsDirectory)
        let loadTime = clock.now - loadStart
        let context = WorkerContext(configuration: configuration, models: models, modelInventory: inventory, logger: logger)

        // Caught from before the socket exists: whoever sees it may signal at once.
        let signals = TerminationSignals()
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.backlog, value: 256)
            .childChannelOption(ChannelOptions.writeBufferWaterMark, value: .init(low: 256 << 10, high: 1 << 20))
            .childChannelInitializer { channel in
                // The peer is known before the first byte is read.
                PeerCredentials.of(channel).flatMapThrowing { peer in
                    try channel.pipeline.syncOperations.addHandlers([
                        ByteToMessageHandler(LengthPrefixedMessageDecoder(maximumMessageLength: configuration.limits.maxMessageBytes)),
                        ConnectionHandler(worker: context, peer: peer),
                    ])
                }
            }
        let socketFile: SocketFile
        let listener: any Channel
        do {
            (socketFile, listener) = try await SocketFile.publish(
                at: configuration.socketPath, mode: configuration.socketMode,
                listen: { path in try await bootstrap.bind(unixDomainSocketPath: path).get() },
                abandon: { channel in try? await channel.close().get() }
            )
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
        let pool = InferencePool(
            count: configuration.inferenceThreads, models: models, splitEngine: splitEngine, scheduler: context.scheduler,
            stats: context.stats, maxPixels: configuration.limits.maxPixels, logger: logger
        )
        if socketFile.removedStaleSocket {
            logger.notice("removed a stale socket left by a worker that is gone", metadata: ["socket": "\(configuration.socketPath)"])
        }
        let limits = configuration.limits
        logger.info("worker started", metadata: [
            "socket": "\(configuration.socketPath)", "socket_mode": "0\(String(configuration.socketMode, radix: 8))",
            "models": "\(configuration.modelsDirectory)", "models_load_ms": "\(loadTime.components.seconds * 1000 + loadTime.components.attoseconds / 1_000_000_000_000_000)",
            "inference_threads": "\(configuration.inferenceThreads)", "max_message_bytes": "\(limits.maxMessageBytes)",
            "max_pixels": "\(limits.maxPixels)", "max_sessions": "\(limits.maxSessions)",
            "max_sessions_per_connection": "\(limits.maxSessionsPerConnection)", "max_queued_frames": "\(limits.maxQueuedFrames)",
        ])
        return FaceWorkerServer(context: context, group: group, listener: listener, socketFile: socketFile, pool: pool, signals: signals)
    }

    /// Serves until SIGTERM or SIGINT, then shuts down.
    public func runUntilTerminated() async {
        let signal = await signals.next()
        context.logger.info("shutting down", metadata: ["signal": "\(signal == SIGTERM ? "SIGTERM" : "SIGINT")"])
        await shutdown()
    }

    /// Stops accepting connections and removes the socket, answers the frames
    /// already accepted, closes every connection and stops the threads.
    public func shutdown() async {
        let deadline = ContinuousClock.now + Self.drainTimeout
        try? await listener.close().get()
        socketFile.remove()
        let connections = context.connections.all
        for channel in connections {
            channel.pipeline.fireUserInboundEventTriggered(ConnectionHandler.DrainEvent())
        }
        while !context.scheduler.isIdle, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(2))
        }
        let idle = context.scheduler.isIdle
        // An empty write completes once everything written before it has
        // reached the socket, so no answer is cut off by the close; a client
        // that does not read is cut off at the deadline.
        let remaining = TimeAmount.microseconds(Int64(clamping: UInt64(microseconds: deadline - ContinuousClock.now)))
        let closes = connections.map { channel in
            let forced = channel.eventLoop.scheduleTask(in: remaining) { channel.close(promise: nil) }
            return channel.writeAndFlush(channel.allocator.buffer(capacity: 0))
                .flatMap { channel.close() }
                .always { _ in forced.cancel() }
        }
        for close in closes { try? await close.get() }
        for channel in connections { try? await channel.close().get() }
        context.scheduler.stop()
        pool.join()
        try? await group.shutdownGracefully()
        context.logger.info("worker stopped", metadata: [
            "frames_in_flight_answered": "\(idle)", "frames_processed": "\(context.stats.framesProcessed.load(ordering: .relaxed))",
        ])
    }
}
