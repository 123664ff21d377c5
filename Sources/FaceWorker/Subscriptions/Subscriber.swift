import FaceWorkerProtocol
import Logging
import Synchronization

/// One subscription: the events of a session on their way to one
/// subscriber's connection, bounded so that a subscriber that does not read
/// costs the worker a fixed amount of memory and nobody else any time.
///
/// An event counts against the queue from when it is handed to the
/// subscriber's outbox until it is written: the kernel has taken its bytes
/// (on the worker's own socket), or the gRPC call has (on the gRPC door). Past `queueLimit` events are not written but counted, and
/// the count goes out as EventsMissed before the next event written, or as
/// soon as the queue has room again.
final class Subscriber: Sendable {
    /// The subscription's ID.
    let id: UInt64
    /// The Subscribe call the events answer.
    let callID: UInt64
    /// The session followed.
    let session: SessionBroadcast
    /// Events that may wait unread before events are missed.
    let queueLimit: Int
    private let outbox: any SubscriptionOutput
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

    init(id: UInt64, callID: UInt64, session: SessionBroadcast, queueLimit: Int, outbox: any SubscriptionOutput,
         registry: NamedSessions, owner: ConnectionSubscriptions, logger: Logger) {
        self.id = id
        self.callID = callID
        self.session = session
        self.queueLimit = queueLimit
        self.outbox = outbox
        self.registry = registry
        self.owner = owner
        self.logger = logger
    }

    /// Queues the SubscribeResponse; called while the session holds its lock,
    /// so it precedes every event.
    func open(options: Faceworker_V1_SessionOptions) {
        var response = Faceworker_V1_SubscribeResponse()
        response.subscriptionID = id
        response.sessionID = session.sessionID
        response.name = session.name ?? ""
        response.options = options
        response.blendshapeNames = options.blendshapeNames
        response.queueLimit = UInt32(clamping: queueLimit)
        state.withLock { _ in
            write([(.opened, message(.subscribe(response)))], tracked: 0)
        }
    }

    /// Queues the event for one answer of the session, or counts it as
    /// missed when the queue is full.
    func offer(_ answer: SessionAnswer) {
        state.withLock { state in
            guard !state.ended, let event = Faceworker_V1_SessionEvent(answer: answer) else { return }
            guard state.unflushed < queueLimit else {
                state.missed += 1
                state.missedTotal += 1
                registry.countMissed()
                return
            }
            var writes = Self.takeMissed(&state).map { [Faceworker_V1_SessionEvent(.eventsMissed($0))] } ?? []
            writes.append(event)
            state.unflushed += writes.count
            write(writes.map { (.event, message(.sessionEvent(stamped($0)))) }, tracked: writes.count)
        }
    }

    /// Ends the subscription once: queues what it missed and its SessionEnded
    /// (nothing when `reason` is nil: its connection is gone), detaches it
    /// from the session and its connection, and logs it.
    ///
    /// - Returns: false when it had already ended.
    @discardableResult
    func end(_ reason: Faceworker_V1_SessionEnded.Reason?) -> Bool {
        let missedTotal = state.withLock { state -> UInt64? in
            guard !state.ended else { return nil }
            state.ended = true
            guard let reason else { return state.missedTotal }
            var ended = Faceworker_V1_SessionEnded()
            ended.reason = reason
            var writes: [(kind: StreamWrite.Kind, message: Faceworker_V1_WorkerMessage)] = []
            if let missed = Self.takeMissed(&state) {
                writes.append((.event, message(.sessionEvent(stamped(Faceworker_V1_SessionEvent(.eventsMissed(missed)))))))
            }
            writes.append((.ended, message(.sessionEvent(stamped(Faceworker_V1_SessionEvent(.sessionEnded(ended)))))))
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
            write([(.event, message(.sessionEvent(stamped(Faceworker_V1_SessionEvent(.eventsMissed(missed))))))], tracked: 1)
        }
    }

    private static func takeMissed(_ state: inout State) -> Faceworker_V1_EventsMissed? {
        guard state.missed > 0 else { return nil }
        var missed = Faceworker_V1_EventsMissed()
        missed.count = state.missed
        state.missed = 0
        return missed
    }

    private func stamped(_ event: Faceworker_V1_SessionEvent) -> Faceworker_V1_SessionEvent {
        var event = event
        event.subscriptionID = id
        return event
    }

    private func message(_ kind: Faceworker_V1_WorkerMessage.OneOf_Kind) -> Faceworker_V1_WorkerMessage {
        Faceworker_V1_WorkerMessage(callID: callID, kind)
    }

    /// Hands writes to the outbox; called with the lock held, so writes
    /// leave in the order they were decided. The first `tracked` count
    /// against the queue until they are written.
    private func write(_ writes: [(kind: StreamWrite.Kind, message: Faceworker_V1_WorkerMessage)], tracked: Int) {
        outbox.sendStream(writes, tracked: tracked) { self.written() }
    }
}
