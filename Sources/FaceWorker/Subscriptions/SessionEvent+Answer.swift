import FaceWorkerProtocol

extension Faceworker_V1_SessionEvent {
    /// The event a subscriber gets for one answer of the session it follows;
    /// nil for an answer subscribers do not see (a close ends their
    /// subscription instead).
    init?(answer: SessionAnswer) {
        self.init()
        switch answer.output {
        case .result(let processed):
            event = .frameResult(Faceworker_V1_FrameResult(processed, sessionID: answer.sessionID))
        case .dropped(let timestampMs, let reason):
            event = .frameDropped(Faceworker_V1_FrameDropped(sessionID: answer.sessionID, timestampMs: timestampMs, reason: reason))
        case .failed(let error, let timestampMs):
            event = .frameError(Faceworker_V1_Status(error, sessionID: answer.sessionID, timestampMs: timestampMs))
        case .reset:
            event = .sessionReset(Faceworker_V1_SessionReset())
        case .closed:
            return nil
        }
    }

    /// An event of `kind`.
    init(_ kind: OneOf_Event) {
        self.init()
        event = kind
    }
}
