import FaceWorkerProtocol

extension Faceworker_V1_SessionEvent {
    /// The event a subscriber gets for one answer of the session it follows;
    /// nil for an answer subscribers do not see (a CloseSession answer ends
    /// their subscription instead).
    init?(answer: Faceworker_V1_WorkerMessage) {
        self.init()
        switch answer.kind {
        case .frameResult(let result): event = .frameResult(result)
        case .frameDropped(let dropped): event = .frameDropped(dropped)
        case .error(let status): event = .frameError(status)
        case .resetSession: event = .sessionReset(Faceworker_V1_SessionReset())
        default: return nil
        }
    }

    /// An event of `kind`.
    init(_ kind: OneOf_Event) {
        self.init()
        event = kind
    }
}
