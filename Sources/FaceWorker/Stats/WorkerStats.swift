import FaceWorkerProtocol
import Synchronization

/// The worker's counters and recent latencies, updated from the event loop
/// and the inference threads, read by GetStats.
final class WorkerStats: Sendable {
    /// Frames answered with a FrameResult.
    let framesProcessed = Atomic<UInt64>(0)
    /// Frames answered with FrameDropped.
    let framesDropped = Atomic<UInt64>(0)
    /// Frames answered with an error.
    let framesFailed = Atomic<UInt64>(0)
    private let latencies = Mutex(StageLatencies())

    /// Records one processed frame's stage times, in microseconds.
    func recordProcessed(_ timings: Faceworker_V1_StageTimings) {
        framesProcessed.add(1, ordering: .relaxed)
        latencies.withLock { $0.record(timings) }
    }

    /// Counts frames answered with FrameDropped.
    func recordDropped(_ count: Int = 1) {
        framesDropped.add(UInt64(count), ordering: .relaxed)
    }

    /// Counts a frame answered with an error.
    func recordFailed() {
        framesFailed.add(1, ordering: .relaxed)
    }

    /// Percentiles of each stage over the recent processed frames.
    func stageLatencies() -> [Faceworker_V1_StageLatency] {
        // Copy under the lock, sort outside it: the inference threads must not
        // wait for a GetStats.
        let snapshot = latencies.withLock { $0 }
        return snapshot.report()
    }
}

/// One latency window per stage.
private struct StageLatencies: Sendable {
    var queued = LatencyWindow()
    var decode = LatencyWindow()
    var detect = LatencyWindow()
    var landmarks = LatencyWindow()
    var total = LatencyWindow()

    mutating func record(_ timings: Faceworker_V1_StageTimings) {
        queued.record(timings.queuedUs)
        decode.record(timings.decodeUs)
        detect.record(timings.detectUs)
        landmarks.record(timings.landmarksUs)
        total.record(timings.totalUs)
    }

    func report() -> [Faceworker_V1_StageLatency] {
        let stages: [(Faceworker_V1_Stage, LatencyWindow)] = [
            (.queued, queued), (.decode, decode), (.detect, detect), (.landmarks, landmarks), (.total, total),
        ]
        return stages.map { stage, window in
            let (p50, p90, p99) = window.percentiles()
            var latency = Faceworker_V1_StageLatency()
            latency.stage = stage
            latency.p50Us = p50
            latency.p90Us = p90
            latency.p99Us = p99
            latency.count = UInt64(window.count)
            return latency
        }
    }
}
