/// Where the metrics endpoint listens: a Unix socket, or a TCP address that
/// is the loopback interface unless a host is named.
package enum MetricsListenAddress: Sendable, Hashable, CustomStringConvertible {
    /// A Unix socket at this path.
    case unixSocket(path: String)
    /// A TCP port on this host (a name or an IP address; port 0 takes any free port).
    case tcp(host: String, port: UInt16)

    /// The host a TCP address without one listens on: metrics stay on the
    /// machine unless the operator opens them up.
    package static let defaultHost = "127.0.0.1"

    /// Reads `--metrics-listen`: a value with a `/`, or starting with `unix:`,
    /// is a Unix socket path; else `host:port`, `:port` or `port` (the host
    /// defaulting to 127.0.0.1), an IPv6 host in brackets (`[::1]:9464`).
    package init(parsing text: String) throws(WorkerStartupError) {
        if text.hasPrefix("unix:") || text.contains("/") {
            let path = text.hasPrefix("unix:") ? String(text.dropFirst(5)) : text
            guard !path.isEmpty else {
                throw WorkerStartupError("the Unix socket path after unix: is empty")
            }
            self = .unixSocket(path: path)
            return
        }
        let host: Substring
        let port: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                throw WorkerStartupError("\(text): an IPv6 host is written [address]:port, such as [::1]:9464")
            }
            host = text[text.index(after: text.startIndex)..<close]
            port = text[text.index(close, offsetBy: 2)...]
        } else if let colon = text.lastIndex(of: ":") {
            host = text[..<colon]
            port = text[text.index(after: colon)...]
            guard !host.contains(":") else {
                throw WorkerStartupError("\(text): put an IPv6 host in brackets, such as [::1]:9464")
            }
        } else {
            host = ""
            port = Substring(text)
        }
        guard let number = UInt16(port) else {
            throw WorkerStartupError(
                "\"\(port)\" is not a TCP port (0 to 65535); give host:port, :port or port for TCP, "
                    + "or a Unix socket path with a / in it (./metrics.sock) or the unix: prefix")
        }
        self = .tcp(host: host.isEmpty ? Self.defaultHost : String(host), port: number)
    }

    /// `unix:<path>` or `host:port`, as logs show it.
    package var description: String {
        switch self {
        case .unixSocket(let path): "unix:\(path)"
        case .tcp(let host, let port): host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        }
    }
}
