import FaceWorkerProtocol

extension Faceworker_V1_WorkerMessage {
    /// The lean socket's envelope for a session's answer: the one place a
    /// FrameResult, FrameDropped, frame error, ResetSessionResponse or
    /// CloseSessionResponse is made from the core's answer.
    init(_ answer: SessionAnswer) {
        let sessionID = answer.sessionID
        let kind: OneOf_Kind
        switch answer.output {
        case .result(let processed):
            kind = .frameResult(Faceworker_V1_FrameResult(processed, sessionID: sessionID))
        case .dropped(let timestampMs, let reason):
            kind = .frameDropped(Faceworker_V1_FrameDropped(sessionID: sessionID, timestampMs: timestampMs, reason: reason))
        case .failed(let error, let timestampMs):
            self = .failure(callID: answer.request.value, error, sessionID: sessionID, timestampMs: timestampMs)
            return
        case .reset:
            var response = Faceworker_V1_ResetSessionResponse()
            response.sessionID = sessionID
            kind = .resetSession(response)
        case .closed:
            var response = Faceworker_V1_CloseSessionResponse()
            response.sessionID = sessionID
            kind = .closeSession(response)
        }
        self.init(callID: answer.request.value, kind)
    }
}

extension Faceworker_V1_FrameDropped {
    /// The notice for a frame of `sessionID` that will never be processed.
    init(sessionID: UInt64, timestampMs: Int64, reason: DropReason) {
        self.init()
        self.sessionID = sessionID
        self.timestampMs = timestampMs
        self.reason = Reason(reason)
    }
}

extension Faceworker_V1_FrameDropped.Reason {
    /// The wire's name for `reason`.
    init(_ reason: DropReason) {
        switch reason {
        case .replaced: self = .replaced
        case .sessionClosed: self = .sessionClosed
        case .sessionReset: self = .sessionReset
        }
    }
}

extension Faceworker_V1_StageTimings {
    /// The wire form of a frame's stage times, in whole microseconds.
    init(_ durations: StageDurations) {
        self.init()
        receivedUnixUs = durations.receivedUnixMicros
        queuedUs = UInt64(microseconds: durations.queued)
        decodeUs = UInt64(microseconds: durations.decode)
        detectUs = UInt64(microseconds: durations.detect)
        landmarksUs = UInt64(microseconds: durations.landmarks)
        totalUs = UInt64(microseconds: durations.total)
    }
}
