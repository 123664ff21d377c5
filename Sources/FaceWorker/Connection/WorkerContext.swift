import FaceDetection
import FaceWorkerProtocol
import Logging
import Synchronization

/// What every connection of a worker shares: the configuration, the models,
/// the scheduler, the counters and the registry of connections.
final class WorkerContext: Sendable {
    /// The worker's configuration.
    let configuration: WorkerConfiguration
    /// The once-loaded models.
    let models: FaceModels
    /// The model files, as GetStats reports them.
    let modelInventory: [Faceworker_V1_ModelInfo]
    /// The fair scheduler in front of the inference threads.
    let scheduler: FrameScheduler
    /// Counters and latencies.
    let stats: WorkerStats
    /// The named sessions and their subscriptions.
    let sharedSessions = SharedSessions()
    /// The open connections.
    let connections = ConnectionRegistry()
    /// Shared-memory buffers: the handoff address, tokens, IDs and counts.
    let sharedMemory: SharedMemory
    /// The worker's logger.
    let logger: Logger
    /// When the worker started, for its uptime.
    let started: ContinuousClock.Instant
    private let lastSessionID = Atomic<UInt64>(0)
    private let lastConnectionID = Atomic<UInt64>(0)

    init(configuration: WorkerConfiguration, models: FaceModels, modelInventory: [Faceworker_V1_ModelInfo], handoffAddress: HandoffAddress, logger: Logger) {
        self.configuration = configuration
        self.models = models
        self.modelInventory = modelInventory
        self.logger = logger
        sharedMemory = SharedMemory(address: handoffAddress, tokenLifetime: configuration.handoffTokenLifetime)
        scheduler = FrameScheduler()
        stats = WorkerStats(metrics: configuration.metrics.map { _ in WorkerMetrics(models: modelInventory) })
        started = .now
    }

    /// A session ID never used before by this worker (never 0).
    func makeSessionID() -> UInt64 {
        lastSessionID.add(1, ordering: .relaxed).newValue
    }

    /// A connection ID for logs, never used before by this worker.
    func makeConnectionID() -> UInt64 {
        lastConnectionID.add(1, ordering: .relaxed).newValue
    }
}
