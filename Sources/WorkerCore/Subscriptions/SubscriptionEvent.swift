import FaceDetection

/// What a subscription delivers to its subscriber, in the core's terms: each
/// transport writes it in its own wire format at its edge.
package enum SubscriptionEvent: Sendable {
    /// The subscription is open; it comes before any answer of the session.
    case opened(SubscriptionOpening)
    /// One answer of the session followed. Never its close, which ends the
    /// subscription instead.
    case answer(SessionAnswer)
    /// The subscriber's queue was full: this many events were counted, not
    /// delivered.
    case missed(UInt64)
    /// The subscription ended; nothing of it follows.
    case ended(SubscriptionEnd)

    /// Whether it is the subscription's last event.
    package var isEnd: Bool {
        if case .ended = self { true } else { false }
    }
}

/// A subscription just opened, and the session it follows.
package struct SubscriptionOpening: Sendable {
    /// The subscription's ID, unique in the worker.
    var subscriptionID: UInt64
    /// The session followed.
    var sessionID: UInt64
    /// The name the session is shared under.
    var name: String
    /// The session's options in effect.
    var options: FaceOptions
    /// Events that may wait unread before events are missed.
    var queueLimit: Int
}

/// Why a subscription ended.
package enum SubscriptionEnd: Sendable {
    /// The producer closed the session.
    case sessionClosed
    /// The producer's connection closed.
    case producerGone
    /// The subscriber unsubscribed.
    case unsubscribed
    /// The worker is shutting down.
    case workerStopping
}
