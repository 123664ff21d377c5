import Synchronization

/// The subscriptions one connection has open: for its limit, for
/// Unsubscribe, and to end them when it closes. A subscription that ends on
/// the session's side (its producer closed it, say) removes itself.
final class ConnectionSubscriptions: Sendable {
    private let subscribers = Mutex<[UInt64: Subscriber]>([:])

    /// Adds a subscription.
    func add(_ subscriber: Subscriber) {
        subscribers.withLock { $0[subscriber.id] = subscriber }
    }

    /// Removes a subscription.
    func remove(_ id: UInt64) {
        subscribers.withLock { $0[id] = nil }
    }

    /// The open subscription with `id`.
    func subscriber(_ id: UInt64) -> Subscriber? {
        subscribers.withLock { $0[id] }
    }

    /// Subscriptions open now.
    var count: Int {
        subscribers.withLock { $0.count }
    }

    /// Every open subscription.
    var all: [Subscriber] {
        subscribers.withLock { Array($0.values) }
    }
}
