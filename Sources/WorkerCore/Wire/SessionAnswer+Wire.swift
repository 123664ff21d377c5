import FaceWorkerProtocol

extension SessionAnswer {
    /// The answer in the wire's messages, folded into an envelope's kind by
    /// one function per message: the one place a FrameResult, FrameDropped,
    /// frame error or reset answer is made from the core's answer. Nil for a
    /// close, which each envelope ends in its own way.
    package func wire<Kind>(result: (Faceworker_V1_FrameResult) -> Kind, dropped: (Faceworker_V1_FrameDropped) -> Kind,
                    error: (Faceworker_V1_Status) -> Kind, reset: (Faceworker_V1_ResetSessionResponse) -> Kind) -> Kind? {
        switch output {
        case .result(let processed):
            return result(Faceworker_V1_FrameResult(processed, sessionID: sessionID))
        case .dropped(let timestampMs, let reason):
            return dropped(Faceworker_V1_FrameDropped(sessionID: sessionID, timestampMs: timestampMs, reason: reason))
        case .failed(let failure, let timestampMs):
            return error(Faceworker_V1_Status(failure, sessionID: sessionID, timestampMs: timestampMs))
        case .reset:
            return reset(Faceworker_V1_ResetSessionResponse(sessionID: sessionID))
        case .closed:
            return nil
        }
    }
}

extension Faceworker_V1_WorkerMessage {
    /// The lean socket's envelope for a session's answer; the one place a
    /// CloseSessionResponse is made.
    package init(_ answer: SessionAnswer) {
        let kind = answer.wire(result: OneOf_Kind.frameResult, dropped: OneOf_Kind.frameDropped, error: OneOf_Kind.error,
                               reset: OneOf_Kind.resetSession)
        self.init(callID: answer.request.value, kind ?? .closeSession(.with { $0.sessionID = answer.sessionID }))
    }
}

extension Faceworker_V1_ResetSessionResponse {
    /// The end of a reset of `sessionID`, which both doors send.
    package init(sessionID: UInt64) {
        self.init()
        self.sessionID = sessionID
    }
}

extension Faceworker_V1_FrameDropped {
    /// The notice for a frame of `sessionID` that will never be processed.
    package init(sessionID: UInt64, timestampMs: Int64, reason: DropReason) {
        self.init()
        self.sessionID = sessionID
        self.timestampMs = timestampMs
        self.reason = Reason(reason)
    }
}

extension Faceworker_V1_FrameDropped.Reason {
    /// The wire's name for `reason`.
    package init(_ reason: DropReason) {
        switch reason {
        case .replaced: self = .replaced
        case .sessionClosed: self = .sessionClosed
        case .sessionReset: self = .sessionReset
        }
    }
}

extension Faceworker_V1_StageTimings {
    /// The wire form of a frame's stage times, in whole microseconds.
    package init(_ durations: StageDurations) {
        self.init()
        receivedUnixUs = durations.receivedUnixMicros
        queuedUs = UInt64(microseconds: durations.queued)
        decodeUs = UInt64(microseconds: durations.decode)
        detectUs = UInt64(microseconds: durations.detect)
        landmarksUs = UInt64(microseconds: durations.landmarks)
        totalUs = UInt64(microseconds: durations.total)
    }
}
