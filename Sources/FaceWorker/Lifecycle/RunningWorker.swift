import Dispatch
import FaceDetection
import FaceWorkerProtocol
import Logging
import NIOCore
import NIOPosix

/// A started worker: the published socket, the event loop serving
/// connections, and the inference threads; and how they stop.
final class RunningWorker: Sendable {
    /// How long shutdown waits for connections to finish the calls they sent
    /// before it closes them anyway; the whole shutdown stays well under 2 s.
    static let drainTimeout = Duration.milliseconds(1500)

    private let context: WorkerContext
    private let group: MultiThreadedEventLoopGroup
    private let listener: any Channel
    /// The socket file the worker published and removes on exit; nil for a
    /// listener a service manager passed, which stays the manager's.
    private let socketFile: SocketFile?
    private let pool: InferencePool
    private let handoff: HandoffListener
    private let grpcDoor: GRPCDoor?
    private let metricsServer: MetricsServer?

    private init(context: WorkerContext, group: MultiThreadedEventLoopGroup, listener: any Channel, socketFile: SocketFile?, pool: InferencePool,
                 handoff: HandoffListener, grpcDoor: GRPCDoor?, metricsServer: MetricsServer?) {
        self.context = context
        self.group = group
        self.listener = listener
        self.socketFile = socketFile
        self.pool = pool
        self.handoff = handoff
        self.grpcDoor = grpcDoor
        self.metricsServer = metricsServer
    }

    /// Loads the models, publishes the socket and starts serving.
    ///
    /// - Throws: `WorkerStartupError` when a live worker already answers on
    ///   the socket, a model cannot be loaded, the socket or the metrics
    ///   endpoint cannot be created, or a configuration value is out of range.
    static func start(configuration: WorkerConfiguration, logger: Logger) async throws -> RunningWorker {
        try configuration.validate()
        // Refuse early, before the models are loaded, a path that cannot work or a worker already there.
        if configuration.inheritedListener == nil {
            try SocketFile.checkLength(of: configuration.socketPath)
        }
        if configuration.inheritedListener == nil, try SocketProbe.probe(configuration.socketPath) == .live {
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
        let inventory = try ModelInventory.describe(models)
        let loadTime = clock.now - loadStart
        let handoff = try HandoffListener()
        let context = WorkerContext(configuration: configuration, models: models, modelInventory: inventory, handoffAddress: handoff.address, logger: logger)

        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.backlog, value: 256)
            .childChannelOption(ChannelOptions.writeBufferWaterMark, value: .init(low: 256 << 10, high: 1 << 20))
            .childChannelInitializer { channel in
                // The peer is known before the first byte is read.
                PeerCredentials.of(channel).flatMapThrowing { peer in
                    try channel.pipeline.syncOperations.addHandlers([
                        ByteToMessageHandler(LengthPrefixedMessageDecoder(maximumMessageLength: configuration.limits.maxMessageBytes)),
                        ConnectionDrainHandler(),
                        ConnectionHandler(worker: context, peer: peer),
                    ])
                }
            }
        let socketFile: SocketFile?
        let listener: any Channel
        let grpcDoor: GRPCDoor?
        do {
            if let path = configuration.grpcSocketPath {
                grpcDoor = try await GRPCDoor.open(at: path, worker: context)
            } else {
                grpcDoor = nil
            }
        } catch {
            handoff.close()
            try? await group.shutdownGracefully()
            throw error
        }
        var metricsServer: MetricsServer?
        do {
            if let endpoint = configuration.metrics, let metrics = context.stats.metrics {
                metricsServer = try await MetricsServer.start(endpoint, socketMode: configuration.socketMode, logger: logger) {
                    metrics.exposition(GaugeReading(context))
                }
            }
            if let inherited = configuration.inheritedListener {
                socketFile = nil
                listener = try await bootstrap.withBoundSocket(inherited).get()
            } else {
                (socketFile, listener) = try await SocketFile.publish(
                    at: configuration.socketPath, mode: configuration.socketMode,
                    listen: { address in try await bootstrap.bind(to: address).get() },
                    abandon: { channel in try? await channel.close().get() }
                )
            }
        } catch {
            await grpcDoor?.shutdown(timeout: .zero)
            await metricsServer?.stop()
            handoff.close()
            try? await group.shutdownGracefully()
            throw error
        }
        handoff.serve(context.sharedMemory, policy: configuration.peerPolicy, logger: logger)
        let pool = InferencePool(
            count: configuration.inferenceThreads, models: models, splitEngine: splitEngine, scheduler: context.scheduler,
            stats: context.stats, maxPixels: configuration.limits.maxPixels, logger: logger
        )
        if socketFile?.removedStaleSocket == true {
            logger.notice("removed a stale socket left by a worker that is gone", metadata: ["socket": "\(configuration.socketPath)"])
        }
        let limits = configuration.limits
        logger.info("worker started", metadata: [
            "socket": "\(configuration.inheritedListener.map { SocketActivation.path(of: $0) ?? "an unnamed socket" } ?? configuration.socketPath)",
            "socket_activation": "\(configuration.inheritedListener != nil)", "socket_mode": "0\(String(configuration.socketMode, radix: 8))",
            "models": "\(configuration.modelsDirectory)", "models_load_ms": "\(Int(loadTime / .milliseconds(1)))",
            "inference_threads": "\(configuration.inferenceThreads)", "max_message_bytes": "\(limits.maxMessageBytes)",
            "max_pixels": "\(limits.maxPixels)", "max_sessions": "\(limits.maxSessions)",
            "max_sessions_per_connection": "\(limits.maxSessionsPerConnection)", "max_queued_frames": "\(limits.maxQueuedFrames)",
            "max_buffers_per_connection": "\(limits.maxBuffersPerConnection)", "max_mapped_bytes_per_connection": "\(limits.maxMappedBytesPerConnection)",
            "handoff_address": "\(handoff.address)", "grpc_socket": "\(grpcDoor?.path ?? "none")",
            "max_subscribers_per_session": "\(limits.maxSubscribersPerSession)",
            "max_subscriptions_per_connection": "\(limits.maxSubscriptionsPerConnection)", "subscriber_queue": "\(limits.subscriberQueue)",
        ])
        return RunningWorker(context: context, group: group, listener: listener, socketFile: socketFile, pool: pool, handoff: handoff, grpcDoor: grpcDoor,
                             metricsServer: metricsServer)
    }

    /// Whether the event loop that serves connections runs a task it is
    /// handed: what a service manager's watchdog ping vouches for.
    func eventLoopAnswers() async -> Bool {
        (try? await listener.eventLoop.submit {}.get()) != nil
    }

    /// Stops accepting connections and removes the socket; lets every
    /// connection finish: the calls it already sent are answered, the ones
    /// read after are refused, and it is closed once its answers are written;
    /// then stops the threads.
    ///
    /// Connections still open after `drainTimeout`, or at once when the task
    /// is cancelled, are closed with what they have not been sent.
    func shutdown() async {
        context.logger.info("shutting down")
        try? await listener.close().get()
        socketFile?.remove()
        await metricsServer?.stop()
        handoff.close()
        context.sharedSessions.stop()
        let connections = context.connections.all
        for channel in connections {
            channel.pipeline.fireUserInboundEventTriggered(ConnectionHandler.DrainEvent())
        }
        let loop = listener.eventLoop
        let drained = EventLoopFuture.andAllComplete(connections.map(\.closeFuture), on: loop)
        async let grpcDrained: Void? = grpcDoor?.shutdown(timeout: Self.drainTimeout)
        let cutOff = await withTaskGroup(of: Void.self) { waits in
            // Closing never fails, so neither does waiting for it.
            waits.addTask { try? await drained.get() }
            // Ends at the deadline, or at once when the task is cancelled.
            waits.addTask { try? await Task.sleep(for: Self.drainTimeout) }
            await waits.next()
            // The wait for `drained` ends once the connections still open are closed.
            let cutOff = try? await loop.submit { Self.cutOff(connections) }.get()
            waits.cancelAll()
            return cutOff ?? 0
        }
        _ = await grpcDrained
        context.scheduler.stop()
        await joinInferenceThreads()
        try? await group.shutdownGracefully()
        context.logger.info("worker stopped", metadata: [
            "connections_cut_off": "\(cutOff)", "frames_processed": "\(context.stats.framesProcessed.load(ordering: .relaxed))",
        ])
    }

    /// Closes the connections still open; returns how many there were.
    private static func cutOff(_ connections: [any Channel]) -> Int {
        let open = connections.filter(\.isActive)
        for channel in open { channel.close(promise: nil) }
        return open.count
    }

    /// Waits for the inference threads to return, each after the frame it is
    /// processing, without blocking a thread of the concurrency pool meanwhile.
    private func joinInferenceThreads() async {
        let pool = pool
        await withCheckedContinuation { (joined: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                pool.join()
                joined.resume()
            }
        }
    }
}
