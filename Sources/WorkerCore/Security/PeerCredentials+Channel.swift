import Glibc
import NIOCore

extension PeerCredentials {
    /// The credentials the kernel recorded for the process at the other end of
    /// an accepted Unix-domain connection (`SO_PEERCRED`).
    package static func of(_ channel: any Channel) -> EventLoopFuture<PeerCredentials> {
        guard let provider = channel as? any SocketOptionProvider else {
            return channel.eventLoop.makeFailedFuture(PeerCredentialsUnavailable())
        }
        let credentials: EventLoopFuture<KernelCredentials> = provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERCRED)
        )
        return credentials.map { PeerCredentials(pid: $0.pid, uid: $0.uid, gid: $0.gid) }
    }
}

/// Linux's `struct ucred`, which Glibc's Swift module hides (it needs
/// `_GNU_SOURCE`): three 32-bit fields, 12 bytes, in this order. A Swift struct
/// of three 32-bit integers has exactly that layout, and
/// `unsafeGetSocketOption` passes `MemoryLayout<KernelCredentials>.size` as
/// the option length, so the kernel writes every field and nothing beyond.
package struct KernelCredentials: Sendable {
    package var pid: Int32 = 0
    package var uid: UInt32 = 0
    package var gid: UInt32 = 0

    /// Zeros, for `getsockopt` to fill.
    package init() {}
}

/// The channel is not a socket whose peer credentials can be read.
package struct PeerCredentialsUnavailable: Error, CustomStringConvertible {
    package var description: String { "the connection's peer credentials (SO_PEERCRED) cannot be read" }

    package init() {}
}
