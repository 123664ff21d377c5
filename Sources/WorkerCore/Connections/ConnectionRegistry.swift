import NIOCore
import Synchronization

/// The open, admitted connections of the worker's own socket, so that
/// shutdown can reach every one, and the gRPC door's count, so that GetStats
/// can count them all.
package final class ConnectionRegistry: Sendable {
    /// Creates it empty.
    package init() {}


    private let channels = Mutex<[UInt64: any Channel]>([:])
    private let grpcConnections = Atomic<Int>(0)
    private let lastID = Atomic<UInt64>(0)

    /// A connection ID for logs, never used before by this worker, through
    /// either door.
    package func makeID() -> UInt64 {
        lastID.add(1, ordering: .relaxed).newValue
    }

    /// Adds a connection.
    package func register(_ id: UInt64, _ channel: any Channel) {
        channels.withLock { $0[id] = channel }
    }

    /// Removes a connection.
    package func unregister(_ id: UInt64) {
        channels.withLock { $0[id] = nil }
    }

    /// Counts a connection of the gRPC door until it closes; the gRPC server
    /// drains and closes those itself.
    package func countGRPCConnection(_ channel: any Channel) {
        grpcConnections.add(1, ordering: .relaxed)
        channel.closeFuture.whenComplete { _ in self.grpcConnections.subtract(1, ordering: .relaxed) }
    }

    /// The number of open connections, through either door.
    package var count: Int {
        channels.withLock { $0.count } + grpcConnections.load(ordering: .relaxed)
    }

    /// Every open connection of the worker's own socket.
    package var all: [any Channel] {
        channels.withLock { Array($0.values) }
    }
}
