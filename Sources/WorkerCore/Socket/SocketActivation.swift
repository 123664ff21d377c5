import Glibc

/// The listening socket a service manager passes when it starts the worker on
/// demand (systemd's socket activation): descriptor 3, announced by
/// `$LISTEN_FDS` for the process `$LISTEN_PID` names. The worker serves it
/// instead of binding a socket of its own, and leaves it in place on exit:
/// the manager owns it.
package enum SocketActivation {
    /// The first passed descriptor, after standard input, output and error.
    package static let firstDescriptor: Int32 = 3

    /// The inherited listener `environment` announces for process `pid`; nil
    /// when none is announced for this process.
    ///
    /// - Throws: `WorkerStartupError` when the announcement is not one
    ///   listening Unix stream socket: a count other than 1, or a descriptor
    ///   that is closed, not a socket, or a socket of another kind.
    package static func inheritedListener(environment: [String: String], pid: pid_t) throws(WorkerStartupError) -> Int32? {
        guard let listenPID = environment["LISTEN_PID"], pid_t(listenPID) == pid else { return nil }
        let count = environment["LISTEN_FDS"] ?? ""
        guard count == "1" else {
            throw WorkerStartupError("LISTEN_FDS is \"\(count)\": socket activation must pass exactly one listening Unix stream socket (ListenStream= once in the .socket unit)")
        }
        let descriptor = firstDescriptor
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw WorkerStartupError("LISTEN_FDS names descriptor \(descriptor), which is not open: \(SystemError.message(errno))")
        }
        guard status.st_mode & S_IFMT == S_IFSOCK else {
            throw WorkerStartupError("LISTEN_FDS names descriptor \(descriptor), which is not a socket")
        }
        let domain = option(SO_DOMAIN, of: descriptor), type = option(SO_TYPE, of: descriptor), listening = option(SO_ACCEPTCONN, of: descriptor)
        guard domain == AF_UNIX, type == Int32(SOCK_STREAM.rawValue), listening == 1 else {
            throw WorkerStartupError("LISTEN_FDS names descriptor \(descriptor), which is not a listening Unix stream socket (ListenStream= with a path in the .socket unit)")
        }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        return descriptor
    }

    /// The path the inherited listener is bound to, for logs; nil for an abstract or unnamed one.
    package static func path(of descriptor: Int32) -> String? {
        var address = sockaddr_un()
        var length = socklen_t(MemoryLayout<sockaddr_un>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else { return nil }
        let path = withUnsafeBytes(of: address.sun_path) { bytes in
            String(decoding: bytes.prefix(max(0, Int(length) - MemoryLayout<sa_family_t>.size)).prefix { $0 != 0 }, as: UTF8.self)
        }
        return path.isEmpty ? nil : path
    }

    private static func option(_ name: Int32, of descriptor: Int32) -> Int32 {
        var value: Int32 = -1
        var size = socklen_t(MemoryLayout<Int32>.size)
        return getsockopt(descriptor, SOL_SOCKET, name, &value, &size) == 0 ? value : -1
    }
}
