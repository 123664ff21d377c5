import NIOCore
import WorkerCore

/// Closes a connection the worker is draining once every call read from it
/// has been answered and the answers have reached the socket.
///
/// It sits between the decoder and the `ConnectionHandler`, where each
/// message read is one call and each message written is one answer, and
/// keeps the connection's `AnswerLedger`: every call gets exactly one answer
/// (a frame that is never processed gets its FrameDropped), so the
/// connection has nothing more to say when the ledger is settled. A
/// subscription's events are not answers (see `StreamWrite`): only its
/// SessionEnded is owed, and counted, like one. It passes every event on
/// untouched. The `ConnectionHandler` stops reading on the same
/// `DrainEvent`, so no call comes after the ledger settles; answers still
/// waiting to be written then are written before the close, and a client
/// that never reads them is cut off by the worker's drain deadline.
final class ConnectionDrainHandler: ChannelDuplexHandler {
    typealias InboundIn = Any
    typealias OutboundIn = Any

    private let ledger = AnswerLedger()
    private var closing = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        ledger.requested()
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard let stream = unwrapOutboundIn(data) as? StreamWrite else {
            ledger.answered()
            context.write(data, promise: promise)
            closeIfAnswered(context: context)
            return
        }
        // A Subscribe call is answered by its SessionEnded, not by its
        // SubscribeResponse, so a draining subscriber is closed only after it.
        if stream.isEnd {
            ledger.answered()
        }
        context.write(NIOAny(stream.bytes), promise: promise)
        closeIfAnswered(context: context)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        context.fireUserInboundEventTriggered(event)
        if event is ConnectionHandler.DrainEvent {
            ledger.drain()
            closeIfAnswered(context: context)
        }
    }

    private func closeIfAnswered(context: ChannelHandlerContext) {
        guard ledger.isDraining, !closing, ledger.isSettled else { return }
        closing = true
        let channel = context.channel
        // Writes complete in order, so an empty one completes once every
        // answer before it has reached the socket (or failed to); nothing on
        // the per-answer path has to keep track of them.
        context.writeAndFlush(NIOAny(context.channel.allocator.buffer(capacity: 0))).whenComplete { _ in
            channel.close(promise: nil)
        }
    }
}
