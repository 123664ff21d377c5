import Glibc
import NIOCore

/// What is at the socket path before the worker binds it.
package enum SocketProbe: Equatable {
    /// Nothing: the path is free.
    case absent
    /// A socket file that nobody listens on, left by a worker that died.
    case stale
    /// A socket on which a process accepts connections: a live worker.
    case live

    /// Looks at `path` without changing anything: a socket file is connected
    /// to, and refused connections mark it stale.
    package static func probe(_ path: String) throws(WorkerStartupError) -> SocketProbe {
        var status = stat()
        guard lstat(path, &status) == 0 else {
            if errno == ENOENT { return .absent }
            throw WorkerStartupError("cannot inspect \(path): \(SystemError.message(errno))")
        }
        guard status.st_mode & S_IFMT == S_IFSOCK else {
            throw WorkerStartupError("\(path) exists and is not a socket; remove it or choose another --socket")
        }
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else {
            throw WorkerStartupError("cannot create a socket: \(SystemError.message(errno))")
        }
        defer { close(descriptor) }
        let address = try SocketAddress.unixSocket(at: path)
        let result = address.withSockAddr { connect(descriptor, $0, socklen_t($1)) }
        if result == 0 { return .live }
        switch errno {
        case ECONNREFUSED, ENOENT: return .stale
        default: throw WorkerStartupError("cannot tell whether a worker answers on \(path): \(SystemError.message(errno))")
        }
    }
}
