/// Where the worker's gauges are read: the one place that knows which part
/// holds each, for the metrics endpoint and GetStats alike.
package struct GaugeSources: Sendable {
    let connections: ConnectionRegistry
    let scheduler: FrameScheduler
    let namedSessions: NamedSessions
    let sharedMemory: SharedMemory

    /// Gauges read from these parts.
    package init(connections: ConnectionRegistry, scheduler: FrameScheduler, namedSessions: NamedSessions, sharedMemory: SharedMemory) {
        self.connections = connections
        self.scheduler = scheduler
        self.namedSessions = namedSessions
        self.sharedMemory = sharedMemory
    }

    /// The gauges as of now.
    package func read() -> GaugeReading {
        GaugeReading(
            connections: connections.count,
            sessions: scheduler.sessionCount,
            queuedFrames: scheduler.queuedFrames,
            residentMemoryBytes: ResidentMemory.bytes(),
            subscriptions: namedSessions.subscriptionCount,
            sharedBuffers: sharedMemory.counters.buffers.load(ordering: .relaxed),
            mappedBytes: sharedMemory.counters.mappedBytes.load(ordering: .relaxed)
        )
    }
}
