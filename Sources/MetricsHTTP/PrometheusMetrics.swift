import FaceDetection
import Prometheus
import WorkerCore

/// The worker's Prometheus metrics, in a registry of its own (no process-wide
/// metrics system): frames are counted and timed as they are answered, and
/// the gauges are read from the worker's parts when a scrape asks.
///
/// Counting is lock-free; a processed frame's five stage times each take the
/// lock of their own histogram, shared only with frames of the same running
/// mode and with scrapes.
package final class PrometheusMetrics: MetricsRecorder {
    private let registry: PrometheusCollectorRegistry
    private let image: StageHistograms
    private let video: StageHistograms
    private let liveStream: StageHistograms
    private let processed: Counter
    private let dropped: Counter
    private let failed: Counter
    private let replaced: Counter
    private let sessionClosed: Counter
    private let sessionReset: Counter
    private let errors: [String: Counter]
    private let gauges: PrometheusGauges

    private static var frames: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "faceworker", metricName: "frames", unitName: "total",
            helpText: "Frames answered, by outcome: processed (a FrameResult), dropped (FrameDropped), failed (an error status)")
    }

    private static var drops: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "faceworker", metricName: "frames_dropped", unitName: "total",
            helpText: "Frames answered with FrameDropped, by reason: replaced (by a newer live-stream frame), session_closed, session_reset")
    }

    private static var errorCalls: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "faceworker", metricName: "errors", unitName: "total",
            helpText: "Calls and connections answered with an error status, by its gRPC code")
    }

    /// Metrics for a worker that loaded `models` and answers errors with
    /// `errorCodes` (gRPC's names), each counted from 0.
    package init(models: [LoadedModel], errorCodes: [String]) {
        let registry = PrometheusCollectorRegistry()
        self.registry = registry
        image = StageHistograms(mode: "image", registry: registry)
        video = StageHistograms(mode: "video", registry: registry)
        liveStream = StageHistograms(mode: "live_stream", registry: registry)
        processed = registry.makeCounter(descriptor: Self.frames, labels: [("outcome", "processed")])
        dropped = registry.makeCounter(descriptor: Self.frames, labels: [("outcome", "dropped")])
        failed = registry.makeCounter(descriptor: Self.frames, labels: [("outcome", "failed")])
        replaced = registry.makeCounter(descriptor: Self.drops, labels: [("reason", "replaced")])
        sessionClosed = registry.makeCounter(descriptor: Self.drops, labels: [("reason", "session_closed")])
        sessionReset = registry.makeCounter(descriptor: Self.drops, labels: [("reason", "session_reset")])
        errors = Dictionary(uniqueKeysWithValues: errorCodes.map { code in
            (code, registry.makeCounter(descriptor: Self.errorCalls, labels: [("code", code)]))
        })
        gauges = PrometheusGauges(models: models, registry: registry)
    }

    /// Counts and times a processed frame of a session in `mode`.
    package func recordProcessed(_ timings: StageDurations, mode: FaceOptions.RunningMode) {
        processed.increment()
        switch mode {
        case .image: image.record(timings)
        case .video: video.record(timings)
        case .liveStream: liveStream.record(timings)
        }
    }

    /// Counts a frame answered with FrameDropped for `reason`.
    package func recordDropped(_ reason: DropReason) {
        dropped.increment()
        switch reason {
        case .replaced: replaced.increment()
        case .sessionClosed: sessionClosed.increment()
        case .sessionReset: sessionReset.increment()
        }
    }

    /// Counts a frame answered with an error status.
    package func recordFailed() {
        failed.increment()
    }

    /// Counts an error status sent to a client, by its code's name in gRPC's
    /// spelling.
    package func recordError(label: String) {
        (errors[label] ?? registry.makeCounter(descriptor: Self.errorCalls, labels: [("code", label)])).increment()
    }

    /// The metrics in Prometheus' text format (0.0.4), the gauges set to `now`.
    package func exposition(_ now: GaugeReading) -> [UInt8] {
        gauges.set(now)
        var text: [UInt8] = []
        text.reserveCapacity(32 << 10)
        registry.emit(into: &text)
        return text
    }
}
