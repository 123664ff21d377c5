import Dispatch
import Synchronization

/// Where the fake pipeline's frames wait on their inference thread until a
/// test opens it: a test can have a frame running while it sends others,
/// and know that it is running, by counting arrivals rather than by waiting
/// for time to pass.
package final class FrameGate: Sendable {
    private struct State {
        var arrived = 0
        var isOpen = false
        var waiters: [(arrivals: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Mutex(State())
    /// One signal per frame held. Only inference threads wait on it, never a
    /// task, so no task's thread is blocked.
    private let held = DispatchSemaphore(value: 0)

    /// A closed gate: every frame waits until it opens.
    package init() {}

    /// Called by a frame on its inference thread: it counts as arrived and,
    /// while the gate is closed, waits for it to open.
    func enter() {
        let (mustWait, ready) = state.withLock { state in
            state.arrived += 1
            let arrived = state.arrived
            let ready = state.waiters.filter { $0.arrivals <= arrived }.map(\.continuation)
            state.waiters.removeAll { $0.arrivals <= arrived }
            return (!state.isOpen, ready)
        }
        for continuation in ready { continuation.resume() }
        if mustWait { held.wait() }
    }

    /// Returns once `count` frames in all have reached the gate.
    package func waitForArrivals(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let arrived = state.withLock { state in
                guard state.arrived < count else { return true }
                state.waiters.append((count, continuation))
                return false
            }
            if arrived { continuation.resume() }
        }
    }

    /// Lets the frames held through, and every frame after them.
    package func open() {
        let waiting = state.withLock { state in
            // Every frame that arrived while it was closed waits, or is about to.
            defer { state.isOpen = true }
            return state.isOpen ? 0 : state.arrived
        }
        for _ in 0..<waiting { held.signal() }
    }
}
