import Synchronization

/// The gRPC door's open Session streams, so that a stopping worker can ask
/// each to drain: read no more, answer what it read, end.
final class GRPCStreams: Sendable {
    private struct State {
        var lastID: UInt64 = 0
        var drains: [UInt64: @Sendable () -> Void] = [:]
        var draining = false
        var emptied: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// Registers a stream's `drain`; returns the registration to remove. A
    /// stream that starts while the worker is draining drains at once.
    func add(_ drain: @escaping @Sendable () -> Void) -> UInt64 {
        let (id, drainNow) = state.withLock { state -> (UInt64, Bool) in
            state.lastID += 1
            state.drains[state.lastID] = drain
            return (state.lastID, state.draining)
        }
        if drainNow { drain() }
        return id
    }

    /// Removes a stream that ended.
    func remove(_ id: UInt64) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.drains[id] = nil
            guard state.drains.isEmpty else { return [] }
            defer { state.emptied = [] }
            return state.emptied
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once no stream is open.
    func waitUntilEmpty() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let empty = state.withLock { state -> Bool in
                guard !state.drains.isEmpty else { return true }
                state.emptied.append(continuation)
                return false
            }
            if empty { continuation.resume() }
        }
    }

    /// Asks every stream, open now or opened later, to drain.
    func drainAll() {
        let drains = state.withLock { state in
            state.draining = true
            return Array(state.drains.values)
        }
        for drain in drains { drain() }
    }
}
