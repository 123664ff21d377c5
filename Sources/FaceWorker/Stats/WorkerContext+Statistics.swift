import FaceWorkerProtocol

extension WorkerContext {
    /// GetStats: the worker-wide counters, recent stage latencies and memory.
    func statistics() -> Faceworker_V1_GetStatsResponse {
        var response = Faceworker_V1_GetStatsResponse()
        let uptime = ContinuousClock.now - started
        response.uptimeSeconds = uptime / .seconds(1)
        response.connections = UInt32(connections.count)
        response.sessions = UInt32(scheduler.sessionCount)
        response.framesProcessed = stats.framesProcessed.load(ordering: .relaxed)
        response.framesDropped = stats.framesDropped.load(ordering: .relaxed)
        response.framesFailed = stats.framesFailed.load(ordering: .relaxed)
        response.stageLatencies = stats.stageLatencies()
        response.residentMemoryBytes = ResidentMemory.bytes()
        response.inferenceThreads = UInt32(configuration.inferenceThreads)
        response.models = modelInventory
        response.sharedBuffers = UInt32(clamping: sharedMemory.counters.buffers.load(ordering: .relaxed))
        response.mappedBytes = UInt64(sharedMemory.counters.mappedBytes.load(ordering: .relaxed))
        response.subscriptions = UInt32(clamping: sharedSessions.subscriptionCount)
        response.eventsMissed = sharedSessions.eventsMissed
        return response
    }
}
