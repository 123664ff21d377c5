import FaceWorkerProtocol
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import Synchronization
import WorkerCore

/// The worker's own socket as a service: it publishes the socket (or serves
/// the listener a service manager passed), serves connections until a
/// graceful shutdown, then drains them.
package final class SocketDoor: Service, Sendable {
    private let core: WorkerCore
    private let configuration: WorkerConfiguration
    private let connections: ConnectionRegistry
    private let logger: Logger
    private let events: any EventLoopGroup
    private let started: PartsStarted
    private let othersFirst: Int
    private let deadline: DrainDeadline
    private let cutOff = Atomic<Int>(0)

    /// A door where `configuration` says, whose connections call `core` on
    /// `events` and are listed in `connections`; it appears once
    /// `othersFirst` parts have reported to `started`, reports to it once it
    /// accepts, and drains by `deadline`.
    package init(core: WorkerCore, configuration: WorkerConfiguration, connections: ConnectionRegistry, logger: Logger, events: any EventLoopGroup,
         started: PartsStarted, othersFirst: Int, deadline: DrainDeadline) {
        self.core = core
        self.configuration = configuration
        self.connections = connections
        self.logger = logger
        self.events = events
        self.started = started
        self.othersFirst = othersFirst
        self.deadline = deadline
    }

    /// How many connections the drain closed with answers unsent.
    package var connectionsCutOff: Int { cutOff.load(ordering: .relaxed) }

    /// Listens and serves until a graceful shutdown; then stops accepting,
    /// removes the socket and lets every connection finish: the calls it
    /// already sent are answered, the ones read after are refused, and it is
    /// closed once its answers are written. Connections still open at the
    /// drain deadline, or at once when the task is cancelled, are closed with
    /// what they have not been sent.
    ///
    /// - Throws: `WorkerStartupError` when the socket cannot be published.
    package func run() async throws {
        // A client that finds the socket finds every other door and the threads up too: the socket
        // appears last. A part that cannot start shuts this one down before it appears.
        let othersUp = await cancelWhenGracefulShutdown { [started, othersFirst] in await started.wait(for: othersFirst) }
        guard othersUp else { return }
        let configuration = configuration
        let bootstrap = ServerBootstrap(group: events)
            .serverChannelOption(ChannelOptions.backlog, value: 256)
            .childChannelOption(ChannelOptions.writeBufferWaterMark, value: .init(low: 256 << 10, high: 1 << 20))
            .childChannelInitializer { [core, connections, logger] channel in
                // The peer is known before the first byte is read.
                PeerCredentials.of(channel).flatMapThrowing { peer in
                    try channel.pipeline.syncOperations.addHandlers([
                        ByteToMessageHandler(LengthPrefixedMessageDecoder(maximumMessageLength: configuration.limits.maxMessageBytes)),
                        ConnectionDrainHandler(),
                        ConnectionHandler(core: core, peerPolicy: configuration.peerPolicy, connections: connections, peer: peer, logger: logger),
                    ])
                }
            }
        let socketFile: SocketFile?
        let listener: any Channel
        if let inherited = configuration.inheritedListener {
            socketFile = nil
            listener = try await bootstrap.withBoundSocket(inherited).get()
        } else {
            (socketFile, listener) = try await SocketFile.publish(
                at: configuration.socketPath, mode: configuration.socketMode,
                listen: { address in try await bootstrap.bind(to: address).get() },
                abandon: { channel in try? await channel.close().get() }
            )
        }
        if socketFile?.removedStaleSocket == true {
            logger.notice("removed a stale socket left by a worker that is gone", metadata: ["socket": "\(configuration.socketPath)"])
        }
        started.report()
        // Cancellation throws here; the drain then sees it and closes at once.
        try? await gracefulShutdown()
        try? await listener.close().get()
        socketFile?.remove()
        cutOff.store(await drain(on: listener.eventLoop), ordering: .relaxed)
    }

    /// Whether the event loop that serves connections runs a task it is
    /// handed: what a service manager's watchdog ping vouches for.
    package func eventLoopAnswers() async -> Bool {
        (try? await events.next().submit {}.get()) != nil
    }

    /// Asks every connection to drain and waits until they have closed or the
    /// deadline has passed; returns how many it then closed.
    private func drain(on loop: any EventLoop) async -> Int {
        let open = connections.all
        for channel in open {
            channel.pipeline.fireUserInboundEventTriggered(ConnectionHandler.DrainEvent())
        }
        let drained = EventLoopFuture.andAllComplete(open.map(\.closeFuture), on: loop)
        let due = deadline.due()
        return await withTaskGroup(of: Void.self) { waits in
            // Closing never fails, so neither does waiting for it.
            waits.addTask { try? await drained.get() }
            // Ends at the deadline, or at once when the task is cancelled.
            waits.addTask { try? await Task.sleep(until: due) }
            await waits.next()
            // The wait for `drained` ends once the connections still open are closed.
            let cutOff = try? await loop.submit { Self.cutOff(open) }.get()
            waits.cancelAll()
            return cutOff ?? 0
        }
    }

    /// Closes the connections still open; returns how many there were.
    private static func cutOff(_ connections: [any Channel]) -> Int {
        let open = connections.filter(\.isActive)
        for channel in open { channel.close(promise: nil) }
        return open.count
    }
}
