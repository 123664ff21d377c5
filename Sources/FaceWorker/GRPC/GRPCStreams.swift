import Synchronization

/// The gRPC door's open Session streams, so that a stopping worker can ask
/// each to drain: read no more, answer what it read, end.
final class GRPCStreams: Sendable {
    private struct State {
        var lastID: UInt64 = 0
        var drains: [UInt64: @Sendable () -> Void] = [:]
        var draining = false
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
        _ = state.withLock { $0.drains.removeValue(forKey: id) }
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
