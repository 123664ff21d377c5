import FaceWorkerGRPC
import GRPCCore
import GRPCNIOTransportHTTP2Posix
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import WorkerCore

/// The worker's second door: the faceworker.v1.FaceWorker gRPC service over
/// HTTP/2 on a Unix socket of its own (`--grpc-socket`), published like the
/// worker's own socket (same mode, same refusal of a live worker's path), with
/// the same peer checks, and serving the same engine. A service: it serves
/// until a graceful shutdown, then drains its streams.
package struct GRPCDoor: Service {
    /// The path the door listens on.
    let path: String
    private let core: WorkerCore
    private let configuration: WorkerConfiguration
    private let connections: ConnectionRegistry
    private let logger: Logger
    private let started: PartsStarted
    private let deadline: DrainDeadline

    /// A door at `path`, with the socket mode, limits and peer checks of
    /// `configuration`, whose calls go to `core`, its connections counted in
    /// `connections`; it reports to `started` once it accepts, and drains by
    /// `deadline`.
    package init(path: String, core: WorkerCore, configuration: WorkerConfiguration, connections: ConnectionRegistry, logger: Logger,
         started: PartsStarted, deadline: DrainDeadline) {
        self.path = path
        self.core = core
        self.configuration = configuration
        self.connections = connections
        self.logger = logger
        self.started = started
        self.deadline = deadline
    }

    /// Publishes the gRPC socket and serves until a graceful shutdown; then
    /// removes the socket and asks every Session stream to drain: the frames
    /// it read are answered, then it ends with UNAVAILABLE. Then stops the
    /// server, which cancels the calls still open. Whatever is still open at
    /// the drain deadline, or at once when the task is cancelled, is cut off.
    ///
    /// - Throws: `WorkerStartupError` when a live worker answers on the path,
    ///   the path is not usable, or the listener cannot be bound.
    package func run() async throws {
        let streams = GRPCStreams()
        let (socketFile, (server, serving)) = try await open(streams: streams)
        started.report()
        try? await gracefulShutdown()
        socketFile.remove()
        streams.drainAll()
        let due = deadline.due()
        await withTaskGroup(of: Void.self) { waits in
            waits.addTask {
                // Stopping the server cancels its calls, so the streams drain first.
                await streams.waitUntilEmpty()
                server.beginGracefulShutdown()
                await serving.value
            }
            waits.addTask { try? await Task.sleep(until: due) }
            await waits.next()
            server.beginGracefulShutdown()
            serving.cancel()
            waits.cancelAll()
        }
        await serving.value
    }

    /// Publishes the socket and starts the server on it.
    private func open(streams: GRPCStreams) async throws -> (SocketFile, (GRPCServer<HTTP2ServerTransport.Posix>, Task<Void, Never>)) {
        let configuration = configuration
        let service = FaceWorkerService(core: core, streams: streams, connections: connections, logger: logger)
        var config = HTTP2ServerTransport.Posix.Config.defaults
        let limits = configuration.limits
        config.rpc.maxRequestPayloadSize = limits.maxMessageBytes
        // Answers go out as soon as they are made: a frame's round trip is what a session waits on,
        // and coalescing flushes holds each one back by up to 100 µs.
        config.connection.flushCoalescing = nil
        // A frame is one message of tens to hundreds of kilobytes: a window and frames sized for it
        // let a client send it at once, where HTTP/2's 64 KiB window and 16 KiB frames would make
        // a large frame wait for window updates.
        config.http2.targetWindowSize = 8 << 20
        config.http2.maxFrameSize = 1 << 20
        // A stream per session or subscription, as many as a connection of the worker's own socket may hold, and a few for unary calls.
        config.http2.maxConcurrentStreams = limits.maxSessionsPerConnection + limits.maxSubscriptionsPerConnection + 8
        // grpc-swift-nio-transport documents these callbacks as for debugging, but it has no supported
        // place for what they do here: a server interceptor's ServerContext names the peer only as a
        // string (no SO_PEERCRED credentials to check), `maxRequestPayloadSize` resets an oversized
        // stream without a status (so MessageSizeCheck answers first), and no configuration sees a
        // connection open or close (so the count is kept here). They only add handlers and count.
        let connections = connections
        config.channelDebuggingCallbacks.onAcceptTCPConnection = { channel in
            connections.countGRPCConnection(channel)
            return channel.eventLoop.makeSucceededVoidFuture()
        }
        let policy = configuration.peerPolicy
        let logger = logger
        let stats = core.stats
        let maximum = limits.maxMessageBytes
        config.channelDebuggingCallbacks.onAcceptHTTP2Stream = { stream in
            Self.guardStream(stream, policy: policy, maxMessageBytes: maximum, stats: stats, logger: logger)
        }
        let path = path
        return try await SocketFile.publish(
            at: path, mode: configuration.socketMode,
            listen: { address in
                // On NIO's process-wide event loops, which are never shut down: the
                // transport still hands them work after `serve()` has returned.
                let transport = HTTP2ServerTransport.Posix(
                    address: .unixDomainSocket(path: address.pathname ?? path), transportSecurity: .plaintext, config: config)
                let server = GRPCServer(transport: transport, services: [service])
                let serving = Task {
                    do {
                        try await server.serve()
                    } catch {
                        logger.error("the gRPC door stopped", metadata: ["error": "\(error)"])
                    }
                }
                do {
                    _ = try await transport.listeningAddress
                } catch {
                    serving.cancel()
                    throw WorkerStartupError("cannot listen for gRPC on \(path): \(error)")
                }
                return (server, serving)
            },
            abandon: { server, serving in
                server.beginGracefulShutdown()
                serving.cancel()
                await serving.value
            }
        )
    }

    /// Refuses the stream when its connection's peer may not use the worker;
    /// else lets it through, watching the size of its messages.
    private static func guardStream(_ stream: any Channel, policy: PeerPolicy, maxMessageBytes: Int, stats: FrameCounters,
                                    logger: Logger) -> EventLoopFuture<Void> {
        guard let connection = stream.parent else {
            return stream.eventLoop.makeFailedFuture(PeerCredentialsUnavailable())
        }
        return PeerCredentials.of(connection).flatMapThrowing { peer in
            guard let refusal = policy.refusal(of: peer) else {
                try stream.pipeline.syncOperations.addHandler(MessageSizeCheck(maximum: maxMessageBytes, stats: stats, logger: logger), position: .first)
                return
            }
            logger.notice("gRPC call refused", metadata: ["peer_pid": "\(peer.pid)", "peer_uid": "\(peer.uid)", "peer_gid": "\(peer.gid)"])
            stats.recordError(refusal.code)
            try stream.pipeline.syncOperations.addHandler(StreamPeerCheck(refusal: refusal), position: .first)
        }
    }
}
