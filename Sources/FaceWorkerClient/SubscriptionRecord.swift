import FaceWorkerProtocol
import Synchronization

/// What a client keeps of a subscription: the name it follows, to subscribe
/// again on a restarted worker, the worker's current IDs, and its events
/// sequence, which outlives the connection.
final class SubscriptionRecord: Sendable {
    /// The followed session's name.
    let name: String
    /// Where the subscription's events go.
    let events: AsyncThrowingStream<SubscriptionEvent, any Error>.Continuation
    /// Its end reason, for the subscription's owner.
    let ending = SubscriptionEnding()
    private let ids: Mutex<(subscription: UInt64, session: UInt64)>

    init(name: String, events: AsyncThrowingStream<SubscriptionEvent, any Error>.Continuation) {
        self.name = name
        self.events = events
        ids = Mutex((0, 0))
    }

    /// The worker's IDs for the subscription and the session it follows.
    var current: (subscription: UInt64, session: UInt64) { ids.withLock { $0 } }

    /// The worker answered the Subscribe call with `response`.
    func subscribed(_ response: Faceworker_V1_SubscribeResponse) {
        ids.withLock { $0 = (response.subscriptionID, response.sessionID) }
    }

    /// Whether the subscription is over (its `.ended` event was delivered).
    var isOver: Bool { ending.reason != nil }
}
