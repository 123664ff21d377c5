import NIOCore

/// The metrics endpoint: where it listens, and the bounds that keep its
/// clients from costing the worker more than a scrape.
package struct MetricsEndpoint: Sendable, Hashable {
    /// Where it listens.
    package var address: MetricsListenAddress
    /// How long a connection may stay open, request and answer included; a
    /// client that sends nothing, or dribbles its request, is cut off then.
    package var requestTimeout: Duration = .seconds(5)
    /// The most connections served at once; more are closed as they come.
    package var maxConnections = 16
    /// The most bytes a request may have; a longer one is answered 431.
    package var maxRequestBytes = 8 << 10

    /// An endpoint at `address` with the default bounds.
    package init(address: MetricsListenAddress) {
        self.address = address
    }

    /// Checks the bounds, and that a Unix socket path fits a socket address.
    package func validate() throws(WorkerStartupError) {
        guard requestTimeout > .zero else {
            throw WorkerStartupError("the metrics request timeout must be positive, got \(requestTimeout)")
        }
        guard maxConnections >= 1, maxRequestBytes >= 1 else {
            throw WorkerStartupError("the metrics endpoint needs at least 1 connection and 1 request byte, got \(maxConnections) and \(maxRequestBytes)")
        }
        if case .unixSocket(let path) = address, (try? SocketFile.checkLength(of: path)) == nil {
            let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
            throw WorkerStartupError(
                "--metrics-listen \(path): a Unix socket path must be 1 to \(SocketAddress.longestUnixSocketPath) bytes long, and so must "
                    + "\(directory)/.faceworker-XXXXXX/socket, where the worker first binds it; choose a shorter path")
        }
    }
}
