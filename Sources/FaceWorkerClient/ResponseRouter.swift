import FaceWorkerProtocol
import Synchronization

/// What a router asks of the client whose connection it serves when the
/// connection is lost.
protocol LinkOwner: AnyObject, Sendable {
    /// Whether the client reconnects after losing `router`'s connection to
    /// `error`; if it does, it keeps the sessions' results and the
    /// subscriptions, and the router reports the frames left unanswered.
    func takesOver(_ router: ResponseRouter, lostTo error: FaceWorkerError) -> Bool
    /// The frames left unanswered are reported: the reconnect may start.
    func reconnect(after error: FaceWorkerError)
    /// The connection is gone for good: calls waiting for it fail with `error`.
    func gone(_ router: ResponseRouter, with error: FaceWorkerError)
}

/// Matches the worker's answers to the calls waiting for them, by call_id.
///
/// A call is either awaited (its caller is suspended until the answer) or
/// streamed (a live-stream frame whose answer goes to its session's results).
/// A Subscribe call is awaited, and its events, which follow under the same
/// call_id, go to its subscription's sequence.
///
/// With `reconnects`, the router serves a client that survives a worker
/// restart: a live frame the stopping worker refuses with UNAVAILABLE is
/// reported as dropped (`REASON_WORKER_RESTARTED`), the worker's
/// WORKER_STOPPING end of a subscription is held back, and when the client
/// takes over a lost connection, its unanswered live frames are reported as
/// dropped and its sequences are left open for the next connection.
final class ResponseRouter: Sendable {
    private enum Waiter {
        /// An awaited call; `frameOf` is the session of a ProcessFrame call.
        case call(CheckedContinuation<Faceworker_V1_WorkerMessage, any Error>, frameOf: UInt64?)
        case stream(sessionID: UInt64, timestampMs: Int64)
    }

    private struct State {
        var waiters: [UInt64: Waiter] = [:]
        var streams: [UInt64: SessionRecord] = [:]
        var subscriptions: [UInt64: Subscription] = [:]
        /// Subscriptions whose WORKER_STOPPING end was held back.
        var stopped: [SubscriptionRecord] = []
        /// Set once the connection is gone; every later call fails with it.
        var closedWith: FaceWorkerError?
        /// The last status the worker sent under call_id 0 (about the
        /// connection rather than a call), reported when it hangs up.
        var connectionStatus: FaceWorkerError?
        /// Whether the worker refused a call with UNAVAILABLE: it is stopping.
        var stopping = false
        weak var owner: (any LinkOwner)?
    }

    private struct Subscription {
        var record: SubscriptionRecord
        /// Events held until the client is back from a restart; nil once
        /// they flow to the sequence.
        var held: [SubscriptionEvent]?
    }

    private let state = Mutex(State())
    private let reconnects: Bool

    init(reconnects: Bool = false) {
        self.reconnects = reconnects
    }

    /// Hands a lost connection to `owner` from now on; returns why the
    /// connection is gone already, if it is, for the owner to act on itself.
    func adopt(by owner: any LinkOwner) -> FaceWorkerError? {
        state.withLock { state in
            state.owner = owner
            return state.closedWith
        }
    }

    /// Registers an awaited call; returns the error to fail it with when the
    /// connection is already gone.
    func expect(_ callID: UInt64, _ continuation: CheckedContinuation<Faceworker_V1_WorkerMessage, any Error>, frameOf session: UInt64? = nil) -> FaceWorkerError? {
        state.withLock { state in
            if let error = state.closedWith { return error }
            state.waiters[callID] = .call(continuation, frameOf: session)
            return nil
        }
    }

    /// Registers a live-stream frame whose answer goes to its session's
    /// results; returns the error to fail it with when the connection is gone.
    func stream(_ callID: UInt64, sessionID: UInt64, timestampMs: Int64) -> FaceWorkerError? {
        state.withLock { state in
            if let error = state.closedWith { return error }
            state.waiters[callID] = .stream(sessionID: sessionID, timestampMs: timestampMs)
            return nil
        }
    }

    /// Registers a session's results stream; false when the connection is gone.
    @discardableResult
    func addStream(_ record: SessionRecord) -> Bool {
        state.withLock { state in
            if state.closedWith != nil { return false }
            state.streams[record.id] = record
            return true
        }
    }

    /// Forgets a session's results stream (after its close was answered).
    func removeStream(_ sessionID: UInt64) {
        _ = state.withLock { $0.streams.removeValue(forKey: sessionID) }
    }

    /// Registers where the events of the Subscribe call `callID` go; the
    /// sequence finishes after their SessionEnded. With `held`, the events
    /// wait until ``release(telling:)``.
    func addSubscription(_ callID: UInt64, _ record: SubscriptionRecord, held: Bool = false) {
        let closedWith = state.withLock { state -> FaceWorkerError? in
            if let error = state.closedWith { return error }
            state.subscriptions[callID] = Subscription(record: record, held: held ? [] : nil)
            return nil
        }
        if let closedWith, !held { record.events.finish(throwing: closedWith) }
    }

    /// Forgets a subscription whose Subscribe call failed.
    func finishSubscription(_ callID: UInt64) {
        state.withLock { $0.subscriptions.removeValue(forKey: callID) }?.record.events.finish()
    }

    /// Lets the held events of every subscription flow, after `event`.
    func release(telling event: SubscriptionEvent) {
        state.withLock { state in
            for (callID, var subscription) in state.subscriptions {
                guard let held = subscription.held else { continue }
                subscription.record.events.yield(event)
                for event in held { subscription.record.events.yield(event) }
                subscription.held = nil
                state.subscriptions[callID] = subscription
            }
        }
    }

    /// Fails a registered call whose request could not be sent.
    func abandon(_ callID: UInt64, with error: any Error) {
        if case .call(let continuation, _) = state.withLock({ $0.waiters.removeValue(forKey: callID) }) {
            continuation.resume(throwing: error)
        }
    }

    /// Hands an answer to whoever waits for it.
    func deliver(_ message: Faceworker_V1_WorkerMessage) {
        if message.callID == 0 {
            if case .error(let status) = message.kind {
                state.withLock { $0.connectionStatus = FaceWorkerError(status) }
            }
            return
        }
        if case .sessionEvent(let event) = message.kind {
            deliver(event, callID: message.callID)
            return
        }
        let refusedForStopping: Bool
        if case .error(let status) = message.kind, status.code == .unavailable, reconnects {
            refusedForStopping = true
        } else {
            refusedForStopping = false
        }
        let (waiter, stream) = state.withLock { state -> (Waiter?, SessionRecord?) in
            if refusedForStopping { state.stopping = true }
            let waiter = state.waiters.removeValue(forKey: message.callID)
            guard case .stream(let sessionID, _) = waiter else { return (waiter, nil) }
            return (waiter, state.streams[sessionID])
        }
        switch waiter {
        case .call(let continuation, _):
            continuation.resume(returning: message)
        case .stream(_, let timestampMs):
            switch message.kind {
            case .frameResult(let result): stream?.results.yield(.result(result))
            case .frameDropped(let dropped): stream?.results.yield(.dropped(dropped))
            case .error where refusedForStopping: stream?.dropRestarted(timestampMs: timestampMs)
            case .error(let status): stream?.results.yield(.failed(timestampMs: timestampMs, FaceWorkerError(status)))
            default: break
            }
        case nil:
            break
        }
    }

    private func deliver(_ event: Faceworker_V1_SessionEvent, callID: UInt64) {
        guard let event = SubscriptionEvent(event) else { return }
        let ended: Faceworker_V1_SessionEnded.Reason?
        if case .ended(let reason) = event { ended = reason } else { ended = nil }
        let holdBack = reconnects && ended == .workerStopping
        let record = state.withLock { state -> SubscriptionRecord? in
            guard var subscription = state.subscriptions[callID] else { return nil }
            if ended != nil {
                state.subscriptions.removeValue(forKey: callID)
                if holdBack {
                    // The worker is stopping, perhaps to restart: the cut that follows decides.
                    state.stopped.append(subscription.record)
                    return nil
                }
            }
            if subscription.held != nil {
                subscription.held?.append(event)
                if ended == nil { state.subscriptions[callID] = subscription }
                return nil
            }
            return subscription.record
        }
        guard let record else { return }
        if let ended { record.ending.reason = ended }
        record.events.yield(event)
        if ended != nil { record.events.finish() }
    }

    /// Fails every waiting call and ends every stream: the connection is gone,
    /// for `reason` when this side knows it, else for the last status the
    /// worker sent about the connection, else because it closed. When the
    /// owner takes over, live frames are reported as dropped instead, and the
    /// sequences stay open.
    func close(with reason: FaceWorkerError? = nil) {
        let (waiters, streams, subscriptions, stopped, error, owner) = state.withLock { state in
            let first = state.closedWith == nil
            let error = state.closedWith ?? reason ?? state.connectionStatus
                ?? FaceWorkerError(code: .unavailable, message: "the connection to the worker closed")
            state.closedWith = error
            defer {
                state.waiters.removeAll()
                state.streams.removeAll()
                state.subscriptions.removeAll()
                state.stopped.removeAll()
            }
            return (Array(state.waiters.values), state.streams, Array(state.subscriptions.values), state.stopped, error, first ? state.owner : nil)
        }
        if let owner, owner.takesOver(self, lostTo: error) {
            for waiter in waiters {
                switch waiter {
                case .call(let continuation, let session):
                    if let session { streams[session]?.countDropped() }
                    continuation.resume(throwing: error)
                case .stream(let session, let timestampMs):
                    streams[session]?.dropRestarted(timestampMs: timestampMs)
                }
            }
            owner.reconnect(after: error)
            return
        }
        for subscription in subscriptions where subscription.held == nil { subscription.record.events.finish(throwing: error) }
        for record in stopped {
            record.ending.reason = .workerStopping
            record.events.yield(.ended(.workerStopping))
            record.events.finish()
        }
        for waiter in waiters {
            if case .call(let continuation, _) = waiter { continuation.resume(throwing: error) }
        }
        for stream in streams.values { stream.results.finish() }
        owner?.gone(self, with: error)
    }

    /// The error calls fail with once the connection is gone, nil while it is open.
    var closedWith: FaceWorkerError? {
        state.withLock { $0.closedWith }
    }

    /// Whether the worker is stopping: it refused a call with UNAVAILABLE, and
    /// will close the connection once it has answered what it read.
    var isStopping: Bool {
        state.withLock { $0.stopping }
    }

    /// How many calls wait for their answer.
    var unanswered: Int {
        state.withLock { $0.waiters.count }
    }
}
