import Synchronization

/// The live-stream frames sent and not yet settled (answered, replaced,
/// dropped or refused), so that closing a task waits for the last frame's
/// result instead of dropping it.
final class LiveFramesInFlight: Sendable {
    private struct State {
        var count = 0
        var idle: [CheckedContinuation<Void, Never>] = []
        /// Set once the session's outcomes have ended: nothing more settles.
        var over = false

        mutating func takeIdle() -> [CheckedContinuation<Void, Never>] {
            defer { idle = [] }
            return idle
        }
    }

    private let state = Mutex(State())

    /// A frame is on its way.
    func sent() {
        state.withLock { $0.count += 1 }
    }

    /// A frame's outcome arrived, or it was never sent.
    func settled() {
        resume(state.withLock { state in
            state.count -= 1
            return state.count == 0 ? state.takeIdle() : []
        })
    }

    /// The session's outcomes ended (it closed, or its connection is gone for
    /// good): no frame will settle any more.
    func end() {
        resume(state.withLock { state in
            state.over = true
            return state.takeIdle()
        })
    }

    /// Returns once no frame is in flight, or the outcomes have ended.
    func untilSettled() async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state in
                guard state.count > 0, !state.over else { return true }
                state.idle.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    private func resume(_ waiting: [CheckedContinuation<Void, Never>]) {
        for continuation in waiting { continuation.resume() }
    }
}

