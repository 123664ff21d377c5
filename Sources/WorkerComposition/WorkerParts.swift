import FaceAnalysis
import FaceDetection
import FaceWorkerProtocol
import GRPCTransport
import Logging
import MetricsHTTP
import NIOPosix
import ServiceLifecycle
import SocketTransport
import WorkerCore

/// The worker's parts, loaded and wired but not yet running: the services of
/// its inner service group, in the order they are declared. The group starts
/// them together and, on a graceful shutdown or when one fails to start,
/// stops them one at a time in the reverse order.
struct WorkerParts: Sendable {
    /// What the worker serves with.
    let configuration: WorkerConfiguration
    /// The calls of every client go here.
    let core: WorkerCore
    /// The worker's logger.
    let logger: Logger
    /// The event loop serving the worker's own socket, shut down once every
    /// part has stopped, since answers of frames still running hop onto it.
    let events: MultiThreadedEventLoopGroup
    /// The worker's own socket.
    let socketDoor: SocketDoor
    /// Where each part reports that it is up.
    let started: PartsStarted
    /// The services, in the order they are declared.
    let services: [any Service]
    /// How long loading the models took.
    let loadTime: Duration

    /// Loads the models and wires the parts.
    ///
    /// - Throws: `WorkerStartupError` when a live worker already answers on
    ///   the socket, a model cannot be loaded, the handoff socket cannot be
    ///   created, or a configuration value is out of range.
    init(configuration: WorkerConfiguration, logger: Logger) throws {
        try configuration.validate()
        // Refuse early, before the models are loaded, a path that cannot work or a worker already there.
        if configuration.inheritedListener == nil {
            try SocketFile.checkLength(of: configuration.socketPath)
            if try SocketProbe.probe(configuration.socketPath) == .live {
                throw WorkerStartupError("a worker already answers on \(configuration.socketPath); stop it first or choose another --socket")
            }
        }
        let clock = ContinuousClock()
        let loadStart = clock.now
        let models: FaceModels
        do {
            models = try FaceModels(directory: configuration.modelsDirectory)
        } catch {
            throw WorkerStartupError("cannot load the models from \(configuration.modelsDirectory): \(error); `make models` fetches them")
        }
        let analyzer: ModelAnalyzer
        do {
            analyzer = try ModelAnalyzer(models: models, threads: configuration.inferenceThreads)
        } catch {
            throw WorkerStartupError("cannot start the inference threads: \(error)")
        }
        let inventory = try ModelInventory.describe(models)
        loadTime = clock.now - loadStart
        // The last step that can fail: from here on every part is a service, which the group stops.
        let handoff = try HandoffListener()
        let connections = ConnectionRegistry()
        let scheduler = FrameScheduler()
        let namedSessions = NamedSessions()
        let sharedMemory = SharedMemory(address: handoff.address, tokenLifetime: configuration.handoffTokenLifetime)
        let metrics = configuration.metrics.map { _ in PrometheusMetrics(models: inventory, errorCodes: Faceworker_V1_Status.Code.errorMetricLabels) }
        let stats = FrameCounters(metrics: metrics)
        let gauges = GaugeSources(connections: connections, scheduler: scheduler, namedSessions: namedSessions, sharedMemory: sharedMemory)
        let statistics = StatsReport(stats: stats, inferenceThreads: configuration.inferenceThreads, models: inventory, started: .now,
                                          gauges: gauges.read, eventsMissed: { namedSessions.eventsMissed })
        let core = WorkerCore(limits: configuration.limits, analyzer: analyzer, scheduler: scheduler, namedSessions: namedSessions,
                              sharedMemory: sharedMemory, stats: stats, statistics: statistics)
        let events = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let started = PartsStarted()
        let deadline = DrainDeadline(timeout: configuration.drainTimeout)

        // Stopped last to first: subscriptions end with WORKER_STOPPING, the
        // doors drain, the metrics and the handoff socket close, and the
        // threads finish the frames they hold.
        var services: [any Service] = [
            InferenceService(configuration: configuration, core: core,
                             callWarmUp: CallWarmUp(jpeg: WarmFrame.jpeg, sessions: WarmFrame.options(for: models)),
                             settle: WarmMemory.settle, logger: logger, started: started),
            HandoffService(listener: handoff, shared: sharedMemory, policy: configuration.peerPolicy, logger: logger, started: started),
        ]
        if let endpoint = configuration.metrics, let metrics {
            services.append(MetricsService(endpoint, socketMode: configuration.socketMode, logger: logger, started: started) {
                metrics.exposition(gauges.read())
            })
        }
        if let path = configuration.grpcSocketPath {
            services.append(GRPCDoor(path: path, core: core, configuration: configuration, connections: connections, logger: logger,
                                     started: started, deadline: deadline))
        }
        let namedSessionsService = NamedSessionsService(namedSessions, started: started)
        // Every other part, the named sessions included, is up before the worker's own socket appears.
        let socketDoor = SocketDoor(core: core, configuration: configuration, connections: connections, logger: logger, events: events,
                                    started: started, othersFirst: services.count + 1, deadline: deadline)
        services.append(socketDoor)
        services.append(namedSessionsService)

        self.configuration = configuration
        self.core = core
        self.logger = logger
        self.events = events
        self.socketDoor = socketDoor
        self.started = started
        self.services = services
    }

    /// The inner service group: a part that fails to start, or ends, shuts
    /// the others down gracefully, and the group throws its error.
    func serviceGroup(logger: Logger) -> ServiceGroup {
        let services = services.map { service in
            ServiceGroupConfiguration.ServiceConfiguration(
                service: service, successTerminationBehavior: .gracefullyShutdownGroup, failureTerminationBehavior: .gracefullyShutdownGroup,
                serviceName: "\(type(of: service))")
        }
        return ServiceGroup(configuration: ServiceGroupConfiguration(services: services, logger: logger))
    }

    /// Logs what the started worker serves and with which limits.
    func logStarted() {
        let limits = configuration.limits
        // The bundle is optional, so a worker without it starts; its operator
        // learns here, not from a client's refused session, what it cannot serve.
        let landmarker = core.analyzer.faceLandmarkerProblem.map { problem in
            "not loaded (\(problem)): detector-only and attention-mesh sessions still work; mesh_model FACE_LANDMARKER sessions are refused with FAILED_PRECONDITION"
        } ?? "loaded"
        logger.info("worker started", metadata: [
            "face_landmarker": "\(landmarker)",
            "socket": "\(configuration.inheritedListener.map { SocketActivation.path(of: $0) ?? "an unnamed socket" } ?? configuration.socketPath)",
            "socket_activation": "\(configuration.inheritedListener != nil)", "socket_mode": "0\(String(configuration.socketMode, radix: 8))",
            "models": "\(configuration.modelsDirectory)", "models_load_ms": "\(Int(loadTime / .milliseconds(1)))",
            "inference_threads": "\(configuration.inferenceThreads)", "inference_threads_from": "\(configuration.inferenceThreadsSource)",
            "max_message_bytes": "\(limits.maxMessageBytes)",
            "max_pixels": "\(limits.maxPixels)", "max_sessions": "\(limits.maxSessions)",
            "max_sessions_per_connection": "\(limits.maxSessionsPerConnection)", "max_queued_frames": "\(limits.maxQueuedFrames)",
            "max_buffers_per_connection": "\(limits.maxBuffersPerConnection)", "max_mapped_bytes_per_connection": "\(limits.maxMappedBytesPerConnection)",
            "handoff_address": "\(core.sharedMemory.address)", "grpc_socket": "\(configuration.grpcSocketPath ?? "none")",
            "max_subscribers_per_session": "\(limits.maxSubscribersPerSession)",
            "max_subscriptions_per_connection": "\(limits.maxSubscriptionsPerConnection)", "subscriber_queue": "\(limits.subscriberQueue)",
        ])
    }
}
