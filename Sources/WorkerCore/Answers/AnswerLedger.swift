import Synchronization

/// The rule every door keeps, kept in one place: each request a client
/// makes gets exactly one answer. A door counts each request it takes in,
/// and each answer once its transport has written it; when the worker
/// drains, the client is owed nothing more once the two counts meet.
///
/// The worker's own socket closes a draining connection then
/// (`ConnectionDrainHandler`); a gRPC Session stream closes its session
/// then, and waits for room while its client sends faster than it reads
/// (`SessionStream`).
package final class AnswerLedger: Sendable {
    private struct State {
        var unanswered = 0
        var draining = false
        var abandoned = false
        var waiter: (limit: Int, continuation: CheckedContinuation<Void, Never>)?
    }

    private let state = Mutex(State())

    /// A ledger with nothing owed.
    package init() {}

    /// `count` requests were taken in.
    package func requested(_ count: Int = 1) {
        state.withLock { $0.unanswered += count }
    }

    /// `count` answers were written.
    package func answered(_ count: Int = 1) {
        let resumed = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.unanswered -= count
            guard let waiter = state.waiter, state.unanswered <= waiter.limit else { return nil }
            state.waiter = nil
            return waiter.continuation
        }
        resumed?.resume()
    }

    /// Whether every request taken in has had its answer written.
    package var isSettled: Bool {
        state.withLock { $0.unanswered <= 0 }
    }

    /// The worker is stopping: the client's door takes no more requests and
    /// ends once it is settled.
    package func drain() {
        state.withLock { $0.draining = true }
    }

    /// Whether the worker asked the door to drain.
    package var isDraining: Bool {
        state.withLock { $0.draining }
    }

    /// Returns once at most `limit` requests wait for their answers, or the
    /// client is gone. Task cancellation does not end the wait: a draining
    /// door still waits for its answers. One waiter at a time.
    package func wait(untilUnansweredAtMost limit: Int) async {
        // Most requests find room: no continuation for them.
        guard state.withLock({ $0.unanswered > limit && !$0.abandoned }) else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                guard state.unanswered > limit, !state.abandoned else { return true }
                state.waiter = (limit, continuation)
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// The client is gone: nothing more will be written, so nobody waits.
    package func abandon() {
        let resumed = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.abandoned = true
            defer { state.waiter = nil }
            return state.waiter?.continuation
        }
        resumed?.resume()
    }
}
