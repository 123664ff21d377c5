import NIOCore
import Synchronization

/// The open, admitted connections, so that shutdown can reach every one and
/// GetStats can count them.
final class ConnectionRegistry: Sendable {
    private let channels = Mutex<[UInt64: any Channel]>([:])

    /// Adds a connection.
    func register(_ id: UInt64, _ channel: any Channel) {
        channels.withLock { $0[id] = channel }
    }

    /// Removes a connection.
    func unregister(_ id: UInt64) {
        channels.withLock { $0[id] = nil }
    }

    /// The number of open connections.
    var count: Int {
        channels.withLock { $0.count }
    }

    /// Every open connection.
    var all: [any Channel] {
        channels.withLock { Array($0.values) }
    }
}
