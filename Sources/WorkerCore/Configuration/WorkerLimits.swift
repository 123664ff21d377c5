/// The limits a worker puts on what its clients may ask of it. Each is a
/// command-line flag; the defaults suit a desktop or a small server.
package struct WorkerLimits: Sendable, Hashable {
    /// The largest message payload accepted, in bytes. A longer length prefix
    /// ends the connection, because the stream can no longer be trusted.
    package var maxMessageBytes = 32 << 20
    /// The largest image accepted, in pixels (width times height of the stored
    /// image), checked from the JPEG header or the raw frame's dimensions
    /// before any pixel is decoded.
    package var maxPixels = 40_000_000
    /// The most sessions open at once over all connections.
    package var maxSessions = 256
    /// The most sessions one connection may have open at once.
    package var maxSessionsPerConnection = 32
    /// The most frames an image or video session may have waiting behind the
    /// one being processed; a frame beyond that is refused.
    package var maxQueuedFrames = 8
    /// The most shared-memory buffers one connection may have, registered or
    /// reserved by a RegisterBuffer call whose handoff has not come yet.
    package var maxBuffersPerConnection = 8
    /// The most bytes of shared memory one connection's registered buffers
    /// may map, together.
    package var maxMappedBytesPerConnection = 1 << 30
    /// The most subscribers one named session may have at once.
    package var maxSubscribersPerSession = 16
    /// The most subscriptions one connection may have open at once.
    package var maxSubscriptionsPerConnection = 16
    /// The most events that may wait for one subscriber to read them; past
    /// that its events are counted as missed, so a slow subscriber never
    /// holds the worker's memory or slows the producer.
    package var subscriberQueue = 64

    /// The default limits.
    package init() {}

    /// Checks that every limit is positive and that the message limit fits the
    /// wire format's 32-bit length.
    package func validate() throws(WorkerStartupError) {
        let positive = [
            ("max-message-bytes", maxMessageBytes), ("max-pixels", maxPixels), ("max-sessions", maxSessions),
            ("max-sessions-per-connection", maxSessionsPerConnection), ("max-queued-frames", maxQueuedFrames),
            ("max-buffers-per-connection", maxBuffersPerConnection), ("max-mapped-bytes-per-connection", maxMappedBytesPerConnection),
            ("max-subscribers-per-session", maxSubscribersPerSession),
            ("max-subscriptions-per-connection", maxSubscriptionsPerConnection), ("subscriber-queue", subscriberQueue),
        ]
        for (name, value) in positive where value < 1 {
            throw WorkerStartupError("--\(name) must be at least 1, got \(value)")
        }
        guard maxMessageBytes <= Int(UInt32.max) else {
            throw WorkerStartupError("--max-message-bytes must be at most \(UInt32.max), the wire format's limit")
        }
    }
}
