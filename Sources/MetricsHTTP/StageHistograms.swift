import Prometheus
import WorkerCore

/// The latency histograms of one running mode, one per stage of a frame.
struct StageHistograms: Sendable {
    /// The metric's name and help, shared by every mode and stage.
    static var descriptor: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "faceworker", metricName: "frame_stage_duration", unitName: "seconds",
            helpText: "Time processed frames spent in each stage: queue (waiting for an inference thread), decode, detect, "
                + "landmarks (0 for a session that asks for none), total (from the request read to the answer ready)")
    }

    /// Upper bounds of the buckets, 0.1 ms to 1 s, about three a decade: a
    /// decode or a detection takes a few milliseconds, a queued frame waits
    /// up to a few frames' time.
    static let buckets: [Duration] = [
        .microseconds(100), .microseconds(250), .microseconds(500),
        .milliseconds(1), .microseconds(2500), .milliseconds(5),
        .milliseconds(10), .milliseconds(25), .milliseconds(50),
        .milliseconds(100), .milliseconds(250), .milliseconds(500),
        .seconds(1),
    ]

    private let queue: DurationHistogram
    private let decode: DurationHistogram
    private let detect: DurationHistogram
    private let landmarks: DurationHistogram
    private let total: DurationHistogram

    /// The histograms labelled with `mode`, registered in `registry`.
    init(mode: String, registry: PrometheusCollectorRegistry) {
        func histogram(_ stage: String) -> DurationHistogram {
            registry.makeDurationHistogram(descriptor: Self.descriptor, labels: [("mode", mode), ("stage", stage)], buckets: Self.buckets)
        }
        queue = histogram("queue")
        decode = histogram("decode")
        detect = histogram("detect")
        landmarks = histogram("landmarks")
        total = histogram("total")
    }

    /// Adds one processed frame's stage times.
    func record(_ timings: StageDurations) {
        queue.record(timings.queued)
        decode.record(timings.decode)
        detect.record(timings.detect)
        landmarks.record(timings.landmarks)
        total.record(timings.total)
    }
}
