/// What the worker's gauges show, read from its parts at one moment (by
/// `GaugeSources`), for the metrics endpoint and GetStats alike.
package struct GaugeReading: Sendable {
    /// Client connections open.
    package var connections: Int
    /// Sessions open.
    package var sessions: Int
    /// Frames waiting for an inference thread.
    package var queuedFrames: Int
    /// The resident set size, in bytes.
    package var residentMemoryBytes: UInt64
    /// Subscriptions open.
    package var subscriptions: Int
    /// Shared-memory buffers registered.
    package var sharedBuffers: Int
    /// Bytes of shared memory mapped.
    package var mappedBytes: Int

    package init(connections: Int, sessions: Int, queuedFrames: Int, residentMemoryBytes: UInt64, subscriptions: Int,
                 sharedBuffers: Int, mappedBytes: Int) {
        self.connections = connections
        self.sessions = sessions
        self.queuedFrames = queuedFrames
        self.residentMemoryBytes = residentMemoryBytes
        self.subscriptions = subscriptions
        self.sharedBuffers = sharedBuffers
        self.mappedBytes = mappedBytes
    }
}
