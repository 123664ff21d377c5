/// What the worker's gauges show, read from its parts at one moment.
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

    /// Reads the gauges of `worker`.
    init(_ worker: WorkerContext) {
        connections = worker.connections.count
        sessions = worker.scheduler.sessionCount
        queuedFrames = worker.scheduler.queuedFrames
        residentMemoryBytes = ResidentMemory.bytes()
        subscriptions = worker.sharedSessions.subscriptionCount
        sharedBuffers = worker.sharedMemory.counters.buffers.load(ordering: .relaxed)
        mappedBytes = worker.sharedMemory.counters.mappedBytes.load(ordering: .relaxed)
    }
}
