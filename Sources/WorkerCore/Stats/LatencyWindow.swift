/// The latencies of the most recent frames of one stage, for percentiles that
/// follow the worker's current load rather than its whole history.
struct LatencyWindow: Sendable {
    /// How many recent samples are kept.
    static let capacity = 4096

    private var samples: [Duration] = []
    private var next = 0

    /// Adds a sample, replacing the oldest once the window is full.
    mutating func record(_ duration: Duration) {
        if samples.count < Self.capacity {
            samples.append(duration)
        } else {
            samples[next] = duration
            next = (next + 1) % Self.capacity
        }
    }

    /// The number of samples the percentiles cover.
    var count: Int { samples.count }

    /// The 50th, 90th and 99th percentiles (nearest rank), zero when empty.
    func percentiles() -> (p50: Duration, p90: Duration, p99: Duration) {
        guard !samples.isEmpty else { return (.zero, .zero, .zero) }
        let sorted = samples.sorted()
        func rank(_ percent: Int) -> Duration {
            let index = (percent * sorted.count + 99) / 100 - 1
            return sorted[min(max(index, 0), sorted.count - 1)]
        }
        return (rank(50), rank(90), rank(99))
    }
}
