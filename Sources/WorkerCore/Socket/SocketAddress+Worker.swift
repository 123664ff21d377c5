import NIOCore

extension SocketAddress {
    /// The longest path NIOCore puts in a Unix socket address, on every
    /// platform (Darwin's `sun_path` less its terminating zero).
    package static let longestUnixSocketPath = 103

    /// The address of a Unix socket at `path`; fails, saying what fits, when
    /// `path` is empty, holds a zero byte or is too long for the address.
    package static func unixSocket(at path: String) throws(WorkerStartupError) -> SocketAddress {
        guard !path.isEmpty, !path.utf8.contains(0), let address = try? SocketAddress(unixDomainSocketPath: path) else {
            throw WorkerStartupError("socket path \(path) must be 1 to \(longestUnixSocketPath) bytes long")
        }
        return address
    }
}
