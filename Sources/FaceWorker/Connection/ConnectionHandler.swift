import FaceDetection
import FaceWorkerProtocol
import Logging
import NIOCore

/// One client connection: checks the peer, reads calls, answers them or
/// hands their frames to the scheduler, and frees the connection's sessions
/// when it ends.
///
/// Lives on the connection's event loop; Ping and GetStats are answered there
/// at once, without a thread hop.
final class ConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// Asks a connection to stop reading and refuse new calls: the worker is
    /// shutting down.
    struct DrainEvent: Sendable {}

    let worker: WorkerContext
    let id: UInt64
    let peer: PeerCredentials
    var logger: Logger
    /// The connection's sessions, whose state the scheduler keeps; a closed
    /// session leaves at once, so later frames for it are NOT_FOUND.
    var sessions: [UInt64: SessionChannel] = [:]
    /// The connection's subscriptions to other connections' sessions.
    let subscriptions = ConnectionSubscriptions()
    var outbox: Outbox?
    var admission: FrameAdmission?
    /// The connection's shared-memory buffers.
    let buffers: BufferTable
    private var admitted = false
    private var draining = false
    private var needsFlush = false

    init(worker: WorkerContext, peer: PeerCredentials) {
        self.worker = worker
        self.peer = peer
        id = worker.makeConnectionID()
        logger = worker.logger
        logger[metadataKey: "connection"] = "\(id)"
        let limits = worker.configuration.limits
        buffers = BufferTable(maxBuffers: limits.maxBuffersPerConnection, maxMappedBytes: limits.maxMappedBytesPerConnection,
                              counters: worker.sharedMemory.counters, logger: logger)
    }

    func channelActive(context: ChannelHandlerContext) {
        let outbox = Outbox(channel: context.channel)
        self.outbox = outbox
        guard worker.configuration.peerPolicy.allows(peer) else {
            logger.notice("connection refused", metadata: ["peer_pid": "\(peer.pid)", "peer_uid": "\(peer.uid)", "peer_gid": "\(peer.gid)"])
            worker.stats.recordError(.permissionDenied)
            outbox.sendAndClose(.failure(callID: 0, CallError(.permissionDenied, "uid \(peer.uid) may not use this worker: only its own user (uid \(worker.configuration.peerPolicy.workerUID)) and users or groups allowed with --allow-uid or --allow-group may")))
            return
        }
        do {
            admission = try FrameAdmission(maxPixels: worker.configuration.limits.maxPixels, buffers: buffers)
        } catch {
            logger.error("cannot create a JPEG decoder", metadata: ["error": "\(error)"])
            outbox.sendAndClose(.failure(callID: 0, CallError(FaceError(error))))
            return
        }
        admitted = true
        worker.connections.register(id, context.channel)
        logger.info("connection opened", metadata: ["peer_pid": "\(peer.pid)", "peer_uid": "\(peer.uid)"])
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        if admitted {
            admitted = false
            worker.connections.unregister(id)
            worker.scheduler.remove(sessions.keys)
            endSharing()
            closeBuffers()
            logger.info("connection closed", metadata: ["sessions_freed": "\(sessions.count)"])
            sessions.removeAll()
        }
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard admitted else { return }
        let payload = unwrapInboundIn(data)
        let message: Faceworker_V1_ClientMessage
        do {
            message = try Faceworker_V1_ClientMessage(serializedBytes: payload.readableBytesSpan)
        } catch {
            fail(callID: 0, CallError(.invalidArgument, "the message is not a valid faceworker.v1.ClientMessage: \(error)"))
            return
        }
        guard !draining else {
            fail(callID: message.callID, CallError(.unavailable, "the worker is shutting down"))
            return
        }
        switch message.kind {
        case .ping(let ping):
            var response = Faceworker_V1_PingResponse()
            response.payload = ping.payload
            reply(context: context, Faceworker_V1_WorkerMessage(callID: message.callID, .ping(response)))
        case .getStats:
            reply(context: context, Faceworker_V1_WorkerMessage(callID: message.callID, .getStats(statistics())))
        case .openSession(let request):
            openSession(callID: message.callID, request)
        case .processFrame(let request):
            processFrame(callID: message.callID, request)
        case .closeSession(let request):
            closeSession(callID: message.callID, request.sessionID)
        case .resetSession(let request):
            resetSession(callID: message.callID, request.sessionID)
        case .subscribe(let request):
            subscribe(callID: message.callID, request)
        case .unsubscribe(let request):
            unsubscribe(callID: message.callID, request.subscriptionID)
        case .registerBuffer:
            registerBuffer(callID: message.callID)
        case .unregisterBuffer(let request):
            unregisterBuffer(callID: message.callID, request.bufferID)
        case nil:
            fail(callID: message.callID, CallError(.unimplemented, "the call is empty or of a kind this worker does not know (it speaks faceworker.v1)"))
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
            worker.stats.recordError(status.code)
            outbox?.sendAndClose(Faceworker_V1_WorkerMessage(callID: 0, .error(status)))
        } else {
            logger.debug("connection error", metadata: ["error": "\(error)"])
            context.close(promise: nil)
        }
    }

    /// Answers on the event loop, flushed when the current read is handled.
    private func reply(context: ChannelHandlerContext, _ message: Faceworker_V1_WorkerMessage) {
        context.write(wrapOutboundOut(Outbox.framed(message, allocator: context.channel.allocator)), promise: nil)
        needsFlush = true
    }

    /// Answers a call with an error, after the answers already sent.
    func fail(callID: UInt64, _ error: CallError, sessionID: UInt64? = nil, timestampMs: Int64? = nil) {
        logRefusal(callID: callID, error, sessionID: sessionID)
        outbox?.send(.failure(callID: callID, error, sessionID: sessionID, timestampMs: timestampMs))
    }

    /// One line per refused call, when it is refused (its answer may follow later).
    func logRefusal(callID: UInt64, _ error: CallError, sessionID: UInt64?) {
        var metadata: Logger.Metadata = ["call": "\(callID)", "code": "\(error.code)", "message": "\(error.message)"]
        if let sessionID { metadata["session"] = "\(sessionID)" }
        logger.info("call refused", metadata: metadata)
        worker.stats.recordError(error.code)
    }
}
