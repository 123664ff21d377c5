/// GetStats: the worker-wide counters, recent stage latencies and memory.
package struct StatsReport: Sendable {
    /// The statistics at one moment, which each door answers GetStats with
    /// in its own wire format.
    package struct Snapshot: Sendable {
        var uptime: Duration
        var connections: Int
        var sessions: Int
        var framesProcessed: UInt64
        var framesDropped: UInt64
        var framesFailed: UInt64
        var stageLatencies: [StageLatency]
        var residentMemoryBytes: UInt64
        var inferenceThreads: Int
        var models: [LoadedModel]
        var sharedBuffers: Int
        var mappedBytes: Int
        var subscriptions: Int
        var eventsMissed: UInt64
    }

    private let stats: FrameCounters
    private let inferenceThreads: Int
    private let models: [LoadedModel]
    private let started: ContinuousClock.Instant
    private let gauges: @Sendable () -> GaugeReading
    private let eventsMissed: @Sendable () -> UInt64

    /// Statistics of a worker started at `started` with `inferenceThreads`
    /// and `models`, whose gauges `gauges` reads (the reading the metrics
    /// endpoint serves too, so the two never count a gauge differently).
    package init(stats: FrameCounters, inferenceThreads: Int, models: [LoadedModel], started: ContinuousClock.Instant,
         gauges: @escaping @Sendable () -> GaugeReading, eventsMissed: @escaping @Sendable () -> UInt64) {
        self.stats = stats
        self.inferenceThreads = inferenceThreads
        self.models = models
        self.started = started
        self.gauges = gauges
        self.eventsMissed = eventsMissed
    }

    /// The statistics as of now.
    package func snapshot() -> Snapshot {
        let gauges = gauges()
        return Snapshot(
            uptime: ContinuousClock.now - started, connections: gauges.connections, sessions: gauges.sessions,
            framesProcessed: stats.framesProcessed.load(ordering: .relaxed), framesDropped: stats.framesDropped.load(ordering: .relaxed),
            framesFailed: stats.framesFailed.load(ordering: .relaxed), stageLatencies: stats.stageLatencies(),
            residentMemoryBytes: gauges.residentMemoryBytes, inferenceThreads: inferenceThreads, models: models,
            sharedBuffers: gauges.sharedBuffers, mappedBytes: gauges.mappedBytes, subscriptions: gauges.subscriptions,
            eventsMissed: eventsMissed())
    }
}
