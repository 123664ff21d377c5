/// The recent latencies of one stage of the processed frames, as GetStats
/// reports them.
package struct StageLatency: Sendable, Equatable {
    /// A stage of a frame's processing.
    enum Stage: Sendable, CaseIterable {
        case queued, decode, detect, landmarks, total
    }

    /// The stage.
    var stage: Stage
    /// The 50th, 90th and 99th percentiles over the recent frames.
    var p50: Duration
    var p90: Duration
    var p99: Duration
    /// How many recent frames they cover.
    var count: Int
}
