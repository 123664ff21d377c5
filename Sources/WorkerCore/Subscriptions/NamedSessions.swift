import Synchronization

/// The worker's named sessions, by name, and the counts GetStats reports of
/// their subscriptions.
package final class NamedSessions: Sendable {
    /// Creates it empty.
    package init() {}


    /// What a Subscribe found under a name.
    enum Lookup {
        /// The open session with the name.
        case found(SessionBroadcast)
        /// No open session has the name.
        case unknown
        /// The worker is shutting down and takes no new subscriptions.
        case stopping
    }

    private struct State {
        var named: [String: SessionBroadcast] = [:]
        var stopping = false
    }

    private let state = Mutex(State())
    private let open = Atomic<Int>(0)
    private let missed = Atomic<UInt64>(0)
    private let lastSubscriptionID = Atomic<UInt64>(0)

    /// Publishes a named session under its name; false when an open session
    /// already has it.
    func register(_ session: SessionBroadcast) -> Bool {
        guard let name = session.name else { return true }
        return state.withLock { state in
            guard state.named[name] == nil else { return false }
            state.named[name] = session
            return true
        }
    }

    /// Frees a session's name (it closed or its connection did).
    func release(_ session: SessionBroadcast) {
        guard let name = session.name else { return }
        state.withLock { state in
            if state.named[name] === session { state.named[name] = nil }
        }
    }

    /// The open session named `name`.
    func lookup(_ name: String) -> Lookup {
        state.withLock { state in
            if state.stopping { return .stopping }
            return state.named[name].map { .found($0) } ?? .unknown
        }
    }

    /// Ends every subscription with WORKER_STOPPING and refuses new ones: the
    /// worker is shutting down.
    func stop() {
        let sessions = state.withLock { state in
            state.stopping = true
            return Array(state.named.values)
        }
        for session in sessions { session.end(.workerStopping) }
    }

    /// A subscription ID never used before by this worker (never 0).
    func makeSubscriptionID() -> UInt64 {
        lastSubscriptionID.add(1, ordering: .relaxed).newValue
    }

    /// A subscription is about to open.
    func subscriptionOpened() {
        open.add(1, ordering: .relaxed)
    }

    /// A subscription ended, or did not open after all.
    func subscriptionEnded() {
        open.subtract(1, ordering: .relaxed)
    }

    /// A subscriber missed an event.
    func countMissed() {
        missed.add(1, ordering: .relaxed)
    }

    /// Subscriptions open now.
    package var subscriptionCount: Int {
        max(0, open.load(ordering: .relaxed))
    }

    /// Events missed by every subscriber since the worker started.
    package var eventsMissed: UInt64 {
        missed.load(ordering: .relaxed)
    }
}
