import FaceWorkerProtocol

extension Faceworker_V1_GetStatsResponse {
    /// The answer to GetStats, which both doors send.
    package init(_ snapshot: StatsReport.Snapshot) {
        self.init()
        uptimeSeconds = snapshot.uptime / .seconds(1)
        connections = UInt32(clamping: snapshot.connections)
        sessions = UInt32(clamping: snapshot.sessions)
        framesProcessed = snapshot.framesProcessed
        framesDropped = snapshot.framesDropped
        framesFailed = snapshot.framesFailed
        stageLatencies = snapshot.stageLatencies.map(Faceworker_V1_StageLatency.init)
        residentMemoryBytes = snapshot.residentMemoryBytes
        inferenceThreads = UInt32(clamping: snapshot.inferenceThreads)
        models = snapshot.models.map { model in
            .with {
                $0.name = model.name
                $0.sha256 = model.sha256
                $0.sizeBytes = UInt64(model.sizeBytes)
            }
        }
        sharedBuffers = UInt32(clamping: snapshot.sharedBuffers)
        mappedBytes = UInt64(clamping: snapshot.mappedBytes)
        subscriptions = UInt32(clamping: snapshot.subscriptions)
        eventsMissed = snapshot.eventsMissed
    }
}

extension Faceworker_V1_StageLatency {
    /// One stage's percentiles, in whole microseconds.
    package init(_ latency: StageLatency) {
        self.init()
        switch latency.stage {
        case .queued: stage = .queued
        case .decode: stage = .decode
        case .detect: stage = .detect
        case .landmarks: stage = .landmarks
        case .total: stage = .total
        }
        p50Us = UInt64(microseconds: latency.p50)
        p90Us = UInt64(microseconds: latency.p90)
        p99Us = UInt64(microseconds: latency.p99)
        count = UInt64(latency.count)
    }
}
