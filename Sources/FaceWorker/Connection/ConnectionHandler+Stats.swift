import FaceWorkerProtocol

extension ConnectionHandler {
    /// GetStats: the worker-wide counters, recent stage latencies and memory.
    func statistics() -> Faceworker_V1_GetStatsResponse {
        var response = Faceworker_V1_GetStatsResponse()
        let uptime = ContinuousClock.now - worker.started
        response.uptimeSeconds = uptime / .seconds(1)
        response.connections = UInt32(worker.connections.count)
        response.sessions = UInt32(worker.scheduler.sessionCount)
        response.framesProcessed = worker.stats.framesProcessed.load(ordering: .relaxed)
        response.framesDropped = worker.stats.framesDropped.load(ordering: .relaxed)
        response.framesFailed = worker.stats.framesFailed.load(ordering: .relaxed)
        response.stageLatencies = worker.stats.stageLatencies()
        response.residentMemoryBytes = ResidentMemory.bytes()
        response.inferenceThreads = UInt32(worker.configuration.inferenceThreads)
        response.models = worker.modelInventory
        response.sharedBuffers = UInt32(clamping: worker.sharedMemory.counters.buffers.load(ordering: .relaxed))
        response.mappedBytes = UInt64(worker.sharedMemory.counters.mappedBytes.load(ordering: .relaxed))
        response.subscriptions = UInt32(clamping: worker.sharedSessions.subscriptionCount)
        response.eventsMissed = worker.sharedSessions.eventsMissed
        return response
    }
}
