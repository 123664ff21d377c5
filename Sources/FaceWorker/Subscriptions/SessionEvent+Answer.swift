import FaceWorkerProtocol

extension Faceworker_V1_SessionEvent {
    /// The event a subscriber gets for one answer of the session it follows;
    /// nil for an answer subscribers do not see (a close ends their
    /// subscription instead).
    init?(answer: SessionAnswer) {
        let event = answer.wire(result: OneOf_Event.frameResult, dropped: OneOf_Event.frameDropped, error: OneOf_Event.frameError,
                                reset: { _ in OneOf_Event.sessionReset(Faceworker_V1_SessionReset()) })
        guard let event else { return nil }
        self.init(event)
    }

    /// An event of `kind`.
    init(_ kind: OneOf_Event) {
        self.init()
        event = kind
    }
}
