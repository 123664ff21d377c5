extension UInt64 {
    /// A duration in whole microseconds, as StageTimings carries it; zero for
    /// a negative one.
    package init(microseconds duration: Duration) {
        self = duration > .zero ? UInt64(duration / .microseconds(1)) : 0
    }
}
