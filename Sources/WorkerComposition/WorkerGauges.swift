import WorkerCore
package 
/// Where the worker's gauges are read: the one place that knows which part
/// holds each, for the metrics endpoint and GetStats alike.
struct WorkerGauges: Sendable {
    let connections: ConnectionRegistry
    let scheduler: FrameScheduler
    let namedSessions: NamedSessions
    let sharedMemory: SharedMemory

    /// The gauges as of now.
    func read() -> GaugeReading {
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
