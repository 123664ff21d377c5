import FaceDetection
import Logging
import Synchronization

/// One subscription: the events of a session on their way to one
/// subscriber's connection, bounded so that a subscriber that does not read
/// costs the worker a fixed amount of memory and nobody else any time.
///
/// An event counts against the queue from when it is handed to the
/// subscriber's output until it is written: the kernel has taken its bytes
/// (on the worker's own socket), or the gRPC call has (on the gRPC door).
/// Past `queueLimit` events are not written but counted, and the count goes
/// out as a missed event before the next event written, or as soon as the
/// queue has room again.
final class Subscriber: Sendable {
    /// The subscription's ID.
    let id: UInt64
    /// The Subscribe request the events answer.
    let request: RequestToken
    /// The session followed.
    let session: SessionBroadcast
    /// Events that may wait unread before events are missed.
    let queueLimit: Int
    private let output: any SubscriptionOutput
    private let registry: NamedSessions
    private let owner: ConnectionSubscriptions
    private let logger: Logger

    private struct State {
        var unflushed = 0
        /// Missed since the last event written.
        var missed: UInt64 = 0
        /// Missed over the whole subscription, for its log line.
        var missedTotal: UInt64 = 0
        var ended = false
    }

    private let state = Mutex(State())

    init(id: UInt64, request: RequestToken, session: SessionBroadcast, queueLimit: Int, output: any SubscriptionOutput,
         registry: NamedSessions, owner: ConnectionSubscriptions, logger: Logger) {
        self.id = id
        self.request = request
        self.session = session
        self.queueLimit = queueLimit
        self.output = output
        self.registry = registry
        self.owner = owner
        self.logger = logger
    }

    /// Queues the opening event; called while the session holds its lock,
    /// so it precedes every answer of the session.
    func open(options: FaceOptions) {
        let opening = SubscriptionOpening(subscriptionID: id, sessionID: session.sessionID, name: session.name ?? "", options: options,
                                          queueLimit: queueLimit)
        state.withLock { _ in
            write([.opened(opening)], tracked: 0)
        }
    }

    /// Queues the event for one answer of the session, or counts it as
    /// missed when the queue is full.
    func offer(_ answer: SessionAnswer) {
        state.withLock { state in
            guard !state.ended else { return }
            if case .closed = answer.output { return }
            guard state.unflushed < queueLimit else {
                state.missed += 1
                state.missedTotal += 1
                registry.countMissed()
                return
            }
            var writes = Self.takeMissed(&state).map { [SubscriptionEvent.missed($0)] } ?? []
            writes.append(.answer(answer))
            state.unflushed += writes.count
            write(writes, tracked: writes.count)
        }
    }

    /// Ends the subscription once: queues what it missed and its end
    /// (nothing when `reason` is nil: its connection is gone), detaches it
    /// from the session and its connection, and logs it.
    ///
    /// - Returns: false when it had already ended.
    @discardableResult
    func end(_ reason: SubscriptionEnd?) -> Bool {
        let missedTotal = state.withLock { state -> UInt64? in
            guard !state.ended else { return nil }
            state.ended = true
            guard let reason else { return state.missedTotal }
            var writes = Self.takeMissed(&state).map { [SubscriptionEvent.missed($0)] } ?? []
            writes.append(.ended(reason))
            write(writes, tracked: 0)
            return state.missedTotal
        }
        guard let missedTotal else { return false }
        let left = session.detach(id)
        owner.remove(id)
        registry.subscriptionEnded()
        logger.info("subscription ended", metadata: [
            "name": "\(session.name ?? "")", "session": "\(session.sessionID)", "subscription": "\(id)",
            "reason": "\(reason.map { "\($0)" } ?? "subscriber gone")", "events_missed": "\(missedTotal)", "subscribers_left": "\(left)",
        ])
        return true
    }

    /// An event was taken by the kernel (or its connection closed); the
    /// count of missed events goes out at once if there is room.
    private func written() {
        state.withLock { state in
            state.unflushed -= 1
            guard !state.ended, state.unflushed < queueLimit, let missed = Self.takeMissed(&state) else { return }
            state.unflushed += 1
            write([.missed(missed)], tracked: 1)
        }
    }

    private static func takeMissed(_ state: inout State) -> UInt64? {
        guard state.missed > 0 else { return nil }
        defer { state.missed = 0 }
        return state.missed
    }

    /// Hands events to the output; called with the lock held, so events
    /// leave in the order they were decided. The first `tracked` count
    /// against the queue until they are written.
    private func write(_ events: [SubscriptionEvent], tracked: Int) {
        output.deliver(events, subscriptionID: id, request: request, tracked: tracked) { self.written() }
    }
}
