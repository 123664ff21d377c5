import Glibc
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import WorkerCore

/// The HTTP endpoint Prometheus scrapes, on a thread of its own so that
/// nothing its clients do takes time from the face-detection connections'
/// event loop: at most `maxConnections` at once, each answered once and
/// closed, cut off at `requestTimeout`, its request at most `maxRequestBytes`.
final class MetricsServer: Sendable {
    /// Where it listens, a TCP port 0 replaced by the port it got.
    let address: String
    private let group: MultiThreadedEventLoopGroup
    private let listener: any Channel
    /// The Unix socket file it published, removed when it stops.
    private let socketFile: SocketFile?

    private init(address: String, group: MultiThreadedEventLoopGroup, listener: any Channel, socketFile: SocketFile?) {
        self.address = address
        self.group = group
        self.listener = listener
        self.socketFile = socketFile
    }

    /// Listens at `endpoint` (a Unix socket gets `socketMode`) and serves
    /// what `exposition` renders.
    ///
    /// - Throws: `WorkerStartupError` when the address cannot be listened on:
    ///   the port is taken, the host unknown, or something other than a stale
    ///   socket is at the path.
    static func start(_ endpoint: MetricsEndpoint, socketMode: UInt32, logger: Logger,
                      exposition: @escaping @Sendable () -> [UInt8]) async throws -> MetricsServer {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let gate = ConnectionGate(limit: endpoint.maxConnections)
        let timeout = TimeAmount(endpoint.requestTimeout)
        let bootstrap = ServerBootstrap(group: group)
            // Room for a burst past the limit, so its extra connections are closed at once rather than left to wait.
            .serverChannelOption(ChannelOptions.backlog, value: Int32(clamping: endpoint.maxConnections * 4))
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                guard gate.enter() else { return channel.eventLoop.makeFailedFuture(ConnectionGate.Full()) }
                let deadline = channel.eventLoop.scheduleTask(in: timeout) { channel.close(promise: nil) }
                channel.closeFuture.whenComplete { _ in
                    deadline.cancel()
                    gate.leave()
                }
                return channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    try pipeline.addHandler(MetricsRequestLimit(maxBytes: endpoint.maxRequestBytes))
                    try pipeline.configureHTTPServerPipeline(withPipeliningAssistance: false, withErrorHandling: true)
                    try pipeline.addHandler(MetricsRequestHandler(exposition: exposition))
                }
            }
        do {
            let server: MetricsServer
            switch endpoint.address {
            case .unixSocket(let path):
                try checkFree(path)
                let (socketFile, listener) = try await SocketFile.publish(
                    at: path, mode: socketMode,
                    listen: { address in try await bootstrap.bind(to: address).get() },
                    abandon: { channel in try? await channel.close().get() }
                )
                server = MetricsServer(address: endpoint.address.description, group: group, listener: listener, socketFile: socketFile)
            case .tcp(let host, let port):
                let listener: any Channel
                do {
                    listener = try await bootstrap.bind(host: host, port: Int(port)).get()
                } catch {
                    throw WorkerStartupError("cannot serve metrics on \(endpoint.address) (--metrics-listen): \(error)")
                }
                let bound = MetricsListenAddress.tcp(host: host, port: UInt16(clamping: listener.localAddress?.port ?? Int(port)))
                server = MetricsServer(address: bound.description, group: group, listener: listener, socketFile: nil)
            }
            logger.info("metrics served", metadata: ["metrics_address": "\(server.address)", "metrics_path": "\(MetricsRequestHandler.path)"])
            return server
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
    }

    /// Stops listening, removes the socket file, and closes the connections
    /// being served.
    func stop() async {
        try? await listener.close().get()
        socketFile?.remove()
        try? await group.shutdownGracefully()
    }

    /// Refuses, with the flag's name, a path where something other than a
    /// stale socket is; a stale one is replaced.
    private static func checkFree(_ path: String) throws(WorkerStartupError) {
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        guard status.st_mode & S_IFMT == S_IFSOCK else {
            throw WorkerStartupError("--metrics-listen \(path) exists and is not a socket; remove it or choose another path")
        }
        guard try SocketProbe.probe(path) != .live else {
            throw WorkerStartupError("--metrics-listen \(path): a process already listens there; stop it or choose another path")
        }
    }
}
