import Glibc

/// A `sockaddr_un` for a path, checked against the kernel's length limit.
struct UnixSocketAddress {
    private var storage = sockaddr_un()

    /// The address of `path`; fails when the path does not fit `sun_path`
    /// with its terminating zero.
    init(_ path: String) throws(WorkerStartupError) {
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: storage.sun_path)
        guard !bytes.isEmpty, bytes.count < capacity, !bytes.contains(0) else {
            throw WorkerStartupError("socket path \(path) must be 1 to \(capacity - 1) bytes long")
        }
        storage.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &storage.sun_path) { destination in
            destination.copyBytes(from: bytes)
        }
    }

    /// Calls `body` with the address as a `sockaddr` and its length.
    mutating func withSockaddr<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
        withUnsafePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                body($0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
    }
}
