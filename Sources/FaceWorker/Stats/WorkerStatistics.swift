import FaceWorkerProtocol

/// GetStats: the worker-wide counters, recent stage latencies and memory.
struct WorkerStatistics: Sendable {
    private let stats: WorkerStats
    private let inferenceThreads: Int
    private let models: [Faceworker_V1_ModelInfo]
    private let started: ContinuousClock.Instant
    private let gauges: @Sendable () -> GaugeReading
    private let eventsMissed: @Sendable () -> UInt64

    /// Statistics of a worker started at `started` with `inferenceThreads`
    /// and `models`, whose gauges `gauges` reads (the reading the metrics
    /// endpoint serves too, so the two never count a gauge differently).
    init(stats: WorkerStats, inferenceThreads: Int, models: [Faceworker_V1_ModelInfo], started: ContinuousClock.Instant,
         gauges: @escaping @Sendable () -> GaugeReading, eventsMissed: @escaping @Sendable () -> UInt64) {
        self.stats = stats
        self.inferenceThreads = inferenceThreads
        self.models = models
        self.started = started
        self.gauges = gauges
        self.eventsMissed = eventsMissed
    }

    /// The GetStats answer as of now.
    func response() -> Faceworker_V1_GetStatsResponse {
        let gauges = gauges()
        var response = Faceworker_V1_GetStatsResponse()
        let uptime = ContinuousClock.now - started
        response.uptimeSeconds = uptime / .seconds(1)
        response.connections = UInt32(clamping: gauges.connections)
        response.sessions = UInt32(clamping: gauges.sessions)
        response.framesProcessed = stats.framesProcessed.load(ordering: .relaxed)
        response.framesDropped = stats.framesDropped.load(ordering: .relaxed)
        response.framesFailed = stats.framesFailed.load(ordering: .relaxed)
        response.stageLatencies = stats.stageLatencies()
        response.residentMemoryBytes = gauges.residentMemoryBytes
        response.inferenceThreads = UInt32(inferenceThreads)
        response.models = models
        response.sharedBuffers = UInt32(clamping: gauges.sharedBuffers)
        response.mappedBytes = UInt64(clamping: gauges.mappedBytes)
        response.subscriptions = UInt32(clamping: gauges.subscriptions)
        response.eventsMissed = eventsMissed()
        return response
    }
}
