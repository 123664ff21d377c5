import Synchronization

/// The tokens RegisterBuffer handed out, each naming the connection's buffer
/// table and the buffer ID it reserved. A token is taken once; an expired one
/// is as unknown as one never issued.
package final class HandoffTokens: Sendable {
    private struct Entry {
        let table: BufferTable
        let bufferID: UInt64
        let deadline: ContinuousClock.Instant
    }

    private let entries = Mutex<[[UInt8]: Entry]>([:])

    /// Records a token for `bufferID` of `table`, valid until `deadline`.
    package func add(_ token: [UInt8], table: BufferTable, bufferID: UInt64, deadline: ContinuousClock.Instant) {
        entries.withLock { entries in
            Self.removeExpired(&entries, now: .now)
            entries[token] = Entry(table: table, bufferID: bufferID, deadline: deadline)
        }
    }

    /// The reservation `token` names, removed so it cannot be used again;
    /// nil when it is unknown, used or expired.
    package func take(_ token: [UInt8], now: ContinuousClock.Instant) -> (table: BufferTable, bufferID: UInt64)? {
        entries.withLock { entries in
            Self.removeExpired(&entries, now: now)
            return entries.removeValue(forKey: token).map { ($0.table, $0.bufferID) }
        }
    }

    /// Forgets the tokens of a closed connection.
    package func forget(_ table: BufferTable) {
        entries.withLock { entries in
            entries = entries.filter { $0.value.table !== table }
        }
    }

    private static func removeExpired(_ entries: inout [[UInt8]: Entry], now: ContinuousClock.Instant) {
        entries = entries.filter { $0.value.deadline > now }
    }
}
