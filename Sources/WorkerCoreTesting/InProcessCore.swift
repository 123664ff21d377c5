import FaceWorkerProtocol
import Logging
import WorkerCore

/// A worker's core as the composition assembles it, on `analyzer` (the fake
/// pipeline unless told otherwise), with its inference threads running and no
/// door: a test drives it through a door's handler or service in-process.
package final class InProcessCore {
    /// What the doors use.
    package let core: WorkerCore
    /// The connections the doors count.
    package let connections = ConnectionRegistry()
    /// Where the gauges are read, for a metrics endpoint's scrape as for GetStats.
    package let gauges: GaugeSources
    private let scheduler: FrameScheduler
    private let pool: InferencePool

    /// A core with `limits` on `analyzer`, whose GetStats lists `models` as the
    /// loaded ones, and which counts its frames and errors in `metrics` when
    /// there are any.
    package init(limits: WorkerLimits = WorkerLimits(), analyzer: any FaceAnalyzer = FakeAnalyzer(), models: [LoadedModel] = [],
                 metrics: (any MetricsRecorder)? = nil) {
        let logger = Logger(label: "in-process") { _ in SwiftLogNoOpLogHandler() }
        let scheduler = FrameScheduler()
        let namedSessions = NamedSessions()
        let sharedMemory = SharedMemory(address: HandoffAddress("@faceworker-in-process")!, tokenLifetime: .seconds(5))
        let stats = FrameCounters(metrics: metrics)
        let gauges = GaugeSources(connections: connections, scheduler: scheduler, namedSessions: namedSessions, sharedMemory: sharedMemory)
        let statistics = StatsReport(stats: stats, inferenceThreads: analyzer.threads, models: models, started: .now,
                                     gauges: gauges.read, eventsMissed: { namedSessions.eventsMissed })
        self.gauges = gauges
        core = WorkerCore(limits: limits, analyzer: analyzer, scheduler: scheduler, namedSessions: namedSessions,
                          sharedMemory: sharedMemory, stats: stats, statistics: statistics)
        self.scheduler = scheduler
        pool = InferencePool(analyzer: analyzer, scheduler: scheduler, stats: stats, maxPixels: limits.maxPixels, logger: logger)
    }

    /// Stops the inference threads once they finish their frames.
    package func stop() {
        scheduler.stop()
        pool.join()
    }
}
