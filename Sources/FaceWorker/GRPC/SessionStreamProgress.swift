import Synchronization

/// How far a gRPC Session stream has got: requests handed to the worker
/// against answers written back, so that the reader can wait for the writer.
///
/// Every request gets exactly one answer, as every call on the worker's own
/// socket does, so the stream is idle when the two counts meet. The reader
/// waits for that before it closes a session whose client has ended its side,
/// and waits for room when the client sends faster than it reads, which keeps
/// what the worker holds for one stream bounded.
final class SessionStreamProgress: Sendable {
    private struct State {
        var unanswered = 0
        var draining = false
        var abandoned = false
        var waiter: (limit: Int, continuation: CheckedContinuation<Void, Never>)?
    }

    private let state = Mutex(State())

    /// A request was handed to the worker.
    func issued() {
        state.withLock { $0.unanswered += 1 }
    }

    /// An answer was written to the client.
    func answered() {
        let resumed = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.unanswered -= 1
            guard let waiter = state.waiter, state.unanswered <= waiter.limit else { return nil }
            state.waiter = nil
            return waiter.continuation
        }
        resumed?.resume()
    }

    /// Returns once at most `limit` requests wait for their answers, or the
    /// stream is abandoned. Task cancellation does not end the wait: a
    /// draining stream still waits for its answers.
    func wait(untilUnansweredAtMost limit: Int) async {
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

    /// The worker is stopping: the stream reads no more and ends once its
    /// answers are written.
    func drain() {
        state.withLock { $0.draining = true }
    }

    /// Whether the worker asked the stream to drain.
    var isDraining: Bool {
        state.withLock { $0.draining }
    }

    /// The client is gone: nothing will be written, so nobody waits.
    func abandon() {
        let resumed = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.abandoned = true
            defer { state.waiter = nil }
            return state.waiter?.continuation
        }
        resumed?.resume()
    }
}
