import FaceWorkerProtocol
import Synchronization

/// Matches the worker's answers to the calls waiting for them, by call_id.
///
/// A call is either awaited (its caller is suspended until the answer) or
/// streamed (a live-stream frame whose answer goes to its session's results).
/// A Subscribe call is awaited, and its events, which follow under the same
/// call_id, go to its subscription's sequence.
final class ResponseRouter: Sendable {
    private enum Waiter {
        case call(CheckedContinuation<Faceworker_V1_WorkerMessage, any Error>)
        case stream(sessionID: UInt64, timestampMs: Int64)
    }

    private struct State {
        var waiters: [UInt64: Waiter] = [:]
        var streams: [UInt64: AsyncStream<LiveStreamEvent>.Continuation] = [:]
        var subscriptions: [UInt64: Subscription] = [:]
        /// Set once the connection is gone; every later call fails with it.
        var closedWith: FaceWorkerError?
        /// The last status the worker sent under call_id 0 (about the
        /// connection rather than a call), reported when it hangs up.
        var connectionStatus: FaceWorkerError?
    }

    private struct Subscription {
        var events: AsyncThrowingStream<SubscriptionEvent, any Error>.Continuation
        var ending: SubscriptionEnding
    }

    private let state = Mutex(State())

    /// Registers an awaited call; returns the error to fail it with when the
    /// connection is already gone.
    func expect(_ callID: UInt64, _ continuation: CheckedContinuation<Faceworker_V1_WorkerMessage, any Error>) -> FaceWorkerError? {
        state.withLock { state in
            if let error = state.closedWith { return error }
            state.waiters[callID] = .call(continuation)
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

    /// Registers a session's results stream.
    func addStream(_ sessionID: UInt64, _ continuation: AsyncStream<LiveStreamEvent>.Continuation) {
        let closed = state.withLock { state in
            if state.closedWith != nil { return true }
            state.streams[sessionID] = continuation
            return false
        }
        if closed { continuation.finish() }
    }

    /// Ends a session's results stream (after its close was answered).
    func finishStream(_ sessionID: UInt64) {
        state.withLock { $0.streams.removeValue(forKey: sessionID) }?.finish()
    }

    /// Registers where the events of the Subscribe call `callID` go; the
    /// sequence finishes after their SessionEnded.
    func addSubscription(_ callID: UInt64, _ events: AsyncThrowingStream<SubscriptionEvent, any Error>.Continuation, ending: SubscriptionEnding) {
        let closedWith = state.withLock { state -> FaceWorkerError? in
            if let error = state.closedWith { return error }
            state.subscriptions[callID] = Subscription(events: events, ending: ending)
            return nil
        }
        if let closedWith { events.finish(throwing: closedWith) }
    }

    /// Forgets a subscription whose Subscribe call failed.
    func finishSubscription(_ callID: UInt64) {
        state.withLock { $0.subscriptions.removeValue(forKey: callID) }?.events.finish()
    }

    /// Fails a registered call whose request could not be sent.
    func abandon(_ callID: UInt64, with error: any Error) {
        if case .call(let continuation) = state.withLock({ $0.waiters.removeValue(forKey: callID) }) {
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
        let (waiter, stream) = state.withLock { state -> (Waiter?, AsyncStream<LiveStreamEvent>.Continuation?) in
            let waiter = state.waiters.removeValue(forKey: message.callID)
            guard case .stream(let sessionID, _) = waiter else { return (waiter, nil) }
            return (waiter, state.streams[sessionID])
        }
        switch waiter {
        case .call(let continuation):
            continuation.resume(returning: message)
        case .stream(_, let timestampMs):
            switch message.kind {
            case .frameResult(let result): stream?.yield(.result(result))
            case .frameDropped(let dropped): stream?.yield(.dropped(dropped))
            case .error(let status): stream?.yield(.failed(timestampMs: timestampMs, FaceWorkerError(status)))
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
        let subscription = state.withLock { state in
            ended == nil ? state.subscriptions[callID] : state.subscriptions.removeValue(forKey: callID)
        }
        guard let subscription else { return }
        subscription.events.yield(event)
        if let ended {
            subscription.ending.reason = ended
            subscription.events.finish()
        }
    }

    /// Fails every waiting call and ends every stream: the connection is gone,
    /// for `reason` when this side knows it, else for the last status the
    /// worker sent about the connection, else because it closed.
    func close(with reason: FaceWorkerError? = nil) {
        let (waiters, streams, subscriptions, error) = state.withLock { state in
            let error = state.closedWith ?? reason ?? state.connectionStatus
                ?? FaceWorkerError(code: .unavailable, message: "the connection to the worker closed")
            state.closedWith = error
            defer {
                state.waiters.removeAll()
                state.streams.removeAll()
                state.subscriptions.removeAll()
            }
            return (Array(state.waiters.values), Array(state.streams.values), Array(state.subscriptions.values), error)
        }
        for subscription in subscriptions { subscription.events.finish(throwing: error) }
        for waiter in waiters {
            if case .call(let continuation) = waiter { continuation.resume(throwing: error) }
        }
        for stream in streams { stream.finish() }
    }

    /// The error calls fail with once the connection is gone, nil while it is open.
    var closedWith: FaceWorkerError? {
        state.withLock { $0.closedWith }
    }
}
