import FaceDetection
import Synchronization

/// The worker's counters and recent latencies, updated from the event loop
/// and the inference threads, read by GetStats; and the Prometheus metrics,
/// when the worker serves them.
package final class FrameCounters: Sendable {
    /// Frames answered with a FrameResult.
    package let framesProcessed = Atomic<UInt64>(0)
    /// Frames answered with FrameDropped.
    let framesDropped = Atomic<UInt64>(0)
    /// Frames answered with an error.
    let framesFailed = Atomic<UInt64>(0)
    /// The Prometheus metrics; nil when the worker does not serve them, so
    /// frames cost nothing more then.
    package let metrics: (any MetricsRecorder)?
    private let latencies = Mutex(StageLatencies())

    /// Counters that also feed `metrics`, when there are any.
    package init(metrics: (any MetricsRecorder)?) {
        self.metrics = metrics
    }

    /// Records one processed frame's stage times for a session in `mode`.
    func recordProcessed(_ timings: StageDurations, mode: FaceOptions.RunningMode) {
        framesProcessed.add(1, ordering: .relaxed)
        latencies.withLock { $0.record(timings) }
        metrics?.recordProcessed(timings, mode: mode)
    }

    /// Counts a frame answered with FrameDropped for `reason`.
    func recordDropped(_ reason: DropReason) {
        framesDropped.add(1, ordering: .relaxed)
        metrics?.recordDropped(reason)
    }

    /// Counts a frame answered with an error.
    func recordFailed() {
        framesFailed.add(1, ordering: .relaxed)
        metrics?.recordFailed()
    }

    /// Counts an error status sent to a client, for a frame or any other call.
    package func recordError(_ code: CallError.Code) {
        metrics?.recordError(label: code.name)
    }

    /// Percentiles of each stage over the recent processed frames.
    func stageLatencies() -> [StageLatency] {
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

    mutating func record(_ timings: StageDurations) {
        queued.record(timings.queued)
        decode.record(timings.decode)
        detect.record(timings.detect)
        landmarks.record(timings.landmarks)
        total.record(timings.total)
    }

    func report() -> [StageLatency] {
        let stages: [(StageLatency.Stage, LatencyWindow)] = [
            (.queued, queued), (.decode, decode), (.detect, detect), (.landmarks, landmarks), (.total, total),
        ]
        return stages.map { stage, window in
            let (p50, p90, p99) = window.percentiles()
            return StageLatency(stage: stage, p50: p50, p90: p90, p99: p99, count: window.count)
        }
    }
}
