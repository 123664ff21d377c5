/// What the worker's gauges show, read from its parts at one moment (by
/// `WorkerGauges`), for the metrics endpoint and GetStats alike.
struct GaugeReading: Sendable {
    /// Client connections open.
    var connections: Int
    /// Sessions open.
    var sessions: Int
    /// Frames waiting for an inference thread.
    var queuedFrames: Int
    /// The resident set size, in bytes.
    var residentMemoryBytes: UInt64
    /// Subscriptions open.
    var subscriptions: Int
    /// Shared-memory buffers registered.
    var sharedBuffers: Int
    /// Bytes of shared memory mapped.
    var mappedBytes: Int
}
