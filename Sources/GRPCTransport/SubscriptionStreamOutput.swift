import FaceWorkerProtocol
import WorkerCore

/// A gRPC Subscribe call's side of its subscription: the subscription's
/// events, turned into the call's updates as they are made, for the call's
/// writer to send in that order.
struct SubscriptionStreamOutput: SubscriptionOutput {
    /// One update on its way to the call.
    struct Update: Sendable {
        /// The update to write.
        var update: Faceworker_V1_SubscriptionUpdate
        /// Whether it is the subscription's last.
        var isLast: Bool
        /// Called once the update is written (or the call is gone), for the
        /// subscription's bounded queue; nil for an update that does not
        /// count against it.
        var written: (@Sendable () -> Void)?
    }

    private let continuation: AsyncStream<Update>.Continuation

    /// Output read from the other end of `continuation`.
    init(_ continuation: AsyncStream<Update>.Continuation) {
        self.continuation = continuation
    }

    func deliver(_ events: [SubscriptionEvent], subscriptionID: UInt64, request: RequestToken, tracked: Int,
                 written: @escaping @Sendable () -> Void) {
        for (index, event) in events.enumerated() {
            let counted = index < tracked ? written : nil
            guard let update = Self.update(event, subscriptionID: subscriptionID) else {
                counted?()
                continue
            }
            let result = continuation.yield(Update(update: update, isLast: event.isEnd, written: counted))
            if case .enqueued = result { continue }
            // The call is gone: nothing will write it, so it is written as far as the queue goes.
            counted?()
        }
    }

    private static func update(_ event: SubscriptionEvent, subscriptionID: UInt64) -> Faceworker_V1_SubscriptionUpdate? {
        if case .opened(let opening) = event {
            return .with { $0.subscribed = Faceworker_V1_SubscribeResponse(opening) }
        }
        return Faceworker_V1_SessionEvent(event, subscriptionID: subscriptionID).map { event in .with { $0.event = event } }
    }
}
