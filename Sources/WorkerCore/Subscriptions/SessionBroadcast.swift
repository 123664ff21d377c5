import FaceDetection
import Synchronization

/// The one point every answer of a session passes through: to its producer's
/// connection and, for a named session, to each subscriber, under one lock,
/// so that every subscriber sees the session's answers in the order the
/// producer gets them.
///
/// Passing an answer on only queues it (to the producer's output, to each
/// `Subscriber`'s bounded queue); nothing here waits for a reader.
final class SessionBroadcast: SessionOutput {
    /// The session.
    let sessionID: UInt64
    /// The name it is shared under; nil for a private session.
    let name: String?
    /// The options in effect, as OpenSession answered them.
    let options: FaceOptions
    /// The producer's side of its transport.
    let producer: any SessionOutput

    /// What a subscriber asking to attach got.
    enum AttachOutcome {
        /// It follows the session, one of `subscribers`.
        case attached(subscribers: Int)
        /// The session already has `subscribers`, the most allowed.
        case full(subscribers: Int)
        /// The session ended; nothing more will come.
        case ended
    }

    private struct State {
        var subscribers: [UInt64: Subscriber] = [:]
        var ended = false
    }

    private let state = Mutex(State())

    init(sessionID: UInt64, name: String?, options: FaceOptions, producer: any SessionOutput) {
        self.sessionID = sessionID
        self.name = name
        self.options = options
        self.producer = producer
    }

    /// Queues answers of the session for its producer and its subscribers; a
    /// close among them ends every subscription after the events before it.
    func emit(_ answers: [SessionAnswer]) {
        guard name != nil else {
            producer.emit(answers)
            return
        }
        let closed = state.withLock { state -> [Subscriber] in
            // Subscribers first: once the producer holds an answer, every
            // subscriber has its event queued, so nothing the producer does in
            // reply (an unsubscribe by a peer it told, say) can overtake it.
            defer { producer.emit(answers) }
            guard !state.ended else { return [] }
            for answer in answers {
                if case .closed = answer.output {
                    state.ended = true
                    defer { state.subscribers = [:] }
                    return Array(state.subscribers.values)
                }
                for subscriber in state.subscribers.values { subscriber.offer(answer) }
            }
            return []
        }
        for subscriber in closed { subscriber.end(.sessionClosed) }
    }

    /// Adds a subscriber unless the session has `limit` already or ended; its
    /// opening event is queued before any event of the session.
    func attach(_ subscriber: Subscriber, limit: Int) -> AttachOutcome {
        state.withLock { state in
            guard !state.ended else { return .ended }
            guard state.subscribers.count < limit else { return .full(subscribers: state.subscribers.count) }
            state.subscribers[subscriber.id] = subscriber
            subscriber.open(options: options)
            return .attached(subscribers: state.subscribers.count)
        }
    }

    /// Removes a subscriber that ended on its own side; returns how many
    /// subscribers are left.
    @discardableResult
    func detach(_ subscriberID: UInt64) -> Int {
        state.withLock { state in
            state.subscribers[subscriberID] = nil
            return state.subscribers.count
        }
    }

    /// Ends every subscription for `reason` (the producer is gone, or the
    /// worker stops); the session sends nothing more to subscribers.
    func end(_ reason: SubscriptionEnd) {
        let subscribers = state.withLock { state -> [Subscriber] in
            state.ended = true
            defer { state.subscribers = [:] }
            return Array(state.subscribers.values)
        }
        for subscriber in subscribers { subscriber.end(reason) }
    }
}
