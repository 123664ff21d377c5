import FaceDetection
import FaceWorkerProtocol
import Imaging
import Logging
import NIOCore
import WorkerCore

/// One connection of the worker's own socket: checks the peer, decodes its
/// calls and hands them to the connection's `ClientCalls`, and frees what the
/// connection held when it ends.
///
/// Lives on the connection's event loop; Ping and GetStats are answered there
/// at once, without a thread hop.
final class ConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// Asks a connection to stop reading and refuse new calls: the worker is
    /// shutting down.
    struct DrainEvent: Sendable {}

    let core: WorkerCore
    let peerPolicy: PeerPolicy
    let connections: ConnectionRegistry
    let id: UInt64
    let peer: PeerCredentials
    var logger: Logger
    /// The connection's sessions, subscriptions and buffers, once admitted.
    private var calls: ClientCalls?
    private var draining = false
    private var needsFlush = false

    /// A connection from `peer`, admitted by `peerPolicy`, whose calls go to
    /// `core`, listed in `connections` while it is open.
    init(core: WorkerCore, peerPolicy: PeerPolicy, connections: ConnectionRegistry, peer: PeerCredentials, logger: Logger) {
        self.core = core
        self.peerPolicy = peerPolicy
        self.connections = connections
        self.peer = peer
        id = connections.makeID()
        self.logger = logger
        self.logger[metadataKey: "connection"] = "\(id)"
    }

    func channelActive(context: ChannelHandlerContext) {
        let outbox = ConnectionOutbox(context.channel)
        if let refusal = peerPolicy.refusal(of: peer) {
            logger.notice("connection refused", metadata: ["peer_pid": "\(peer.pid)", "peer_uid": "\(peer.uid)", "peer_gid": "\(peer.gid)"])
            core.stats.recordError(refusal.code)
            outbox.sendAndClose(.failure(callID: 0, refusal))
            return
        }
        calls = ClientCalls(core: core, outbox: outbox, peerPID: peer.pid, logger: logger)
        connections.register(id, context.channel)
        logger.info("connection opened", metadata: ["peer_pid": "\(peer.pid)", "peer_uid": "\(peer.uid)"])
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        if let calls {
            self.calls = nil
            connections.unregister(id)
            let freed = calls.end()
            logger.info("connection closed", metadata: ["sessions_freed": "\(freed)"])
        }
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard let calls else { return }
        let payload = unwrapInboundIn(data)
        let message: Faceworker_V1_ClientMessage
        do {
            message = try Faceworker_V1_ClientMessage(serializedBytes: payload.readableBytesSpan)
        } catch {
            calls.fail(callID: 0, CallError(.invalidArgument, "the message is not a valid faceworker.v1.ClientMessage: \(error)"))
            return
        }
        guard !draining else {
            calls.fail(callID: message.callID, CallError(.unavailable, "the worker is shutting down"))
            return
        }
        // Answered here, on the event loop, without a hop through the outbox.
        if let answer = calls.handle(message) {
            reply(context: context, answer)
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if needsFlush {
            needsFlush = false
            context.flush()
        }
        context.fireChannelReadComplete()
    }

    /// Reading stops while the client does not read its answers, so what the
    /// worker holds for a slow reader stays bounded.
    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if !draining {
            try? context.channel.syncOptions?.setOption(ChannelOptions.autoRead, value: context.channel.isWritable)
        }
        context.fireChannelWritabilityChanged()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is DrainEvent {
            draining = true
            try? context.channel.syncOptions?.setOption(ChannelOptions.autoRead, value: false)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if case ByteToMessageDecoderError.dataReceivedInErrorState = error {
            // Bytes that keep coming after broken framing are discarded while the
            // status goes out; the outbox closes the connection after that.
            return
        }
        if case FramingError.truncatedMessage = error {
            logger.notice("connection closed inside a message", metadata: ["message": "\(error)"])
        } else if let framing = error as? FramingError {
            logger.notice("connection closed: broken framing", metadata: ["message": "\(framing)"])
            let status = Faceworker_V1_Status(framing)
            core.stats.metrics?.recordError(label: status.code.metricLabel)
            ConnectionOutbox(context.channel).sendAndClose(Faceworker_V1_WorkerMessage(callID: 0, .error(status)))
        } else {
            logger.debug("connection error", metadata: ["error": "\(error)"])
            context.close(promise: nil)
        }
    }

    /// Answers on the event loop, flushed when the current read is handled.
    private func reply(context: ChannelHandlerContext, _ message: Faceworker_V1_WorkerMessage) {
        context.write(wrapOutboundOut(message.framed(allocator: context.channel.allocator)), promise: nil)
        needsFlush = true
    }
}
