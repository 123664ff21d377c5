import Synchronization

/// Tells the worker when its parts are up: each listener once it accepts,
/// the threads once they run. The parts start together in their service
/// group, which says nothing of when a part is ready; the worker's own
/// socket waits for the others before it appears, and READY=1 and the
/// "worker started" line wait for every part.
package final class PartsStarted: Sendable {
    /// Creates it empty.
    package init() {}


    private struct State {
        var reported = 0
        var lastWaiter: UInt64 = 0
        var waiters: [UInt64: (count: Int, continuation: CheckedContinuation<Bool, Never>)] = [:]
    }

    private let state = Mutex(State())

    /// A part is up.
    package func report() {
        let ready = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
            state.reported += 1
            let ready = state.waiters.filter { $0.value.count <= state.reported }
            for id in ready.keys { state.waiters[id] = nil }
            return ready.values.map(\.continuation)
        }
        for waiter in ready { waiter.resume(returning: true) }
    }

    /// Waits until `count` parts have reported; false when the task was
    /// cancelled first (a part failed to start, or the worker was stopped).
    package func wait(for count: Int) async -> Bool {
        let id = state.withLock { state in
            state.lastWaiter += 1
            return state.lastWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                // Under the lock, so a cancellation either is seen here or finds the waiter.
                let outcome = state.withLock { state -> Bool? in
                    if state.reported >= count { return true }
                    if Task.isCancelled { return false }
                    state.waiters[id] = (count, continuation)
                    return nil
                }
                if let outcome { continuation.resume(returning: outcome) }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.continuation.resume(returning: false)
        }
    }
}
