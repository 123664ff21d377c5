import FaceDetection
import Logging
import Synchronization

/// What the calls of a client use of the worker, whichever door they came
/// through: the limits, the face pipeline, the scheduler, the named sessions, the
/// shared-memory buffers and the counters. Made once, where the parts are
/// assembled; a door holds it and what it needs of its own (its listener,
/// its peer checks), nothing more.
package final class WorkerCore: Sendable {
    /// What clients may ask for.
    package let limits: WorkerLimits
    /// The face pipeline the sessions run on.
    package let analyzer: any FaceAnalyzer
    /// The fair scheduler in front of the inference threads.
    let scheduler: FrameScheduler
    /// The named sessions and their subscriptions.
    let namedSessions: NamedSessions
    /// Shared-memory buffers: the handoff address, tokens, IDs and counts.
    package let sharedMemory: SharedMemory
    /// Counters and latencies.
    package let stats: FrameCounters
    /// GetStats's answer.
    package let statistics: StatsReport
    private let lastSessionID = Atomic<UInt64>(0)

    /// The core of a worker made of these parts.
    package init(limits: WorkerLimits, analyzer: any FaceAnalyzer, scheduler: FrameScheduler, namedSessions: NamedSessions,
                 sharedMemory: SharedMemory, stats: FrameCounters, statistics: StatsReport) {
        self.limits = limits
        self.analyzer = analyzer
        self.scheduler = scheduler
        self.namedSessions = namedSessions
        self.sharedMemory = sharedMemory
        self.stats = stats
        self.statistics = statistics
    }

    /// A session ID never used before by this worker (never 0).
    func makeSessionID() -> UInt64 {
        lastSessionID.add(1, ordering: .relaxed).newValue
    }

    /// Logs a refused call, when it is refused (its answer may follow later),
    /// and counts its error unless the call is not `counted` (the worker's own).
    package func recordRefusal(_ request: RequestToken, _ error: CallError, sessionID: UInt64?, logger: Logger, counted: Bool = true) {
        var metadata: Logger.Metadata = ["call": "\(request.value)", "code": "\(error.code)", "message": "\(error.message)"]
        if let sessionID { metadata["session"] = "\(sessionID)" }
        logger.info("call refused", metadata: metadata)
        if counted { stats.recordError(error.code) }
    }
}
