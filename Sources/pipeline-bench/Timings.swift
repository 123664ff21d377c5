/// The durations of one measurement's timed runs, summarized as every
/// benchmark of the project reports them.
struct Timings {
    private(set) var milliseconds: [Double] = []

    init(capacity: Int) {
        milliseconds.reserveCapacity(capacity)
    }

    mutating func append(_ duration: Duration) {
        milliseconds.append(duration / .milliseconds(1))
    }

    var median: Double { milliseconds.sorted()[milliseconds.count / 2] }

    var p90: Double {
        let sorted = milliseconds.sorted()
        return sorted[min(sorted.count - 1, sorted.count * 9 / 10)]
    }

    var fastest: Double { milliseconds.min() ?? .infinity }
}
