import FaceWorkerProtocol

extension Faceworker_V1_SubscribeResponse {
    /// The answer to a Subscribe call, which both doors send first.
    package init(_ opening: SubscriptionOpening) {
        self.init()
        subscriptionID = opening.subscriptionID
        sessionID = opening.sessionID
        name = opening.name
        options = Faceworker_V1_SessionOptions(effective: opening.options)
        blendshapeNames = options.blendshapeNames
        queueLimit = UInt32(clamping: opening.queueLimit)
    }
}

extension Faceworker_V1_SessionEvent {
    /// The wire form of a subscription's event after its opening; nil for
    /// the opening, which is a SubscribeResponse.
    package init?(_ subscriptionEvent: SubscriptionEvent, subscriptionID: UInt64) {
        let kind: OneOf_Event?
        switch subscriptionEvent {
        case .opened:
            return nil
        case .answer(let answer):
            kind = answer.wire(result: OneOf_Event.frameResult, dropped: OneOf_Event.frameDropped, error: OneOf_Event.frameError,
                               reset: { _ in OneOf_Event.sessionReset(Faceworker_V1_SessionReset()) })
        case .missed(let count):
            kind = .eventsMissed(.with { $0.count = count })
        case .ended(let end):
            kind = .sessionEnded(.with { $0.reason = Faceworker_V1_SessionEnded.Reason(end) })
        }
        guard let kind else { return nil }
        self.init()
        self.subscriptionID = subscriptionID
        event = kind
    }
}

extension Faceworker_V1_SessionEnded.Reason {
    /// The wire's name for why a subscription ended.
    package init(_ end: SubscriptionEnd) {
        switch end {
        case .sessionClosed: self = .sessionClosed
        case .producerGone: self = .producerGone
        case .unsubscribed: self = .unsubscribed
        case .workerStopping: self = .workerStopping
        }
    }
}

extension Faceworker_V1_WorkerMessage {
    /// The lean socket's envelope for a subscription's event, under the
    /// Subscribe call `callID`: the opening is the call's SubscribeResponse,
    /// every later event a SessionEvent. Nil for an event subscribers never
    /// see (a session's close).
    package init?(_ event: SubscriptionEvent, subscriptionID: UInt64, callID: UInt64) {
        if case .opened(let opening) = event {
            self.init(callID: callID, .subscribe(Faceworker_V1_SubscribeResponse(opening)))
            return
        }
        guard let sessionEvent = Faceworker_V1_SessionEvent(event, subscriptionID: subscriptionID) else { return nil }
        self.init(callID: callID, .sessionEvent(sessionEvent))
    }
}
