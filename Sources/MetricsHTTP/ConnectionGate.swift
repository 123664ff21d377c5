import Synchronization

/// Admits at most `limit` connections at once.
final class ConnectionGate: Sendable {
    /// A connection came while `limit` were open; it is closed unserved.
    struct Full: Error {}

    /// The most connections open at once.
    let limit: Int
    private let open = Atomic<Int>(0)

    /// A gate admitting `limit` connections at once.
    init(limit: Int) {
        self.limit = limit
    }

    /// Admits one more connection, unless `limit` are open.
    func enter() -> Bool {
        var current = open.load(ordering: .relaxed)
        while current < limit {
            let (exchanged, found) = open.compareExchange(expected: current, desired: current + 1, ordering: .relaxed)
            if exchanged { return true }
            current = found
        }
        return false
    }

    /// Lets an admitted connection go.
    func leave() {
        open.subtract(1, ordering: .relaxed)
    }
}
