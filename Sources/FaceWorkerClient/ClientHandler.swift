import FaceWorkerProtocol
import NIOCore

/// Reads the worker's messages off the connection and routes them.
final class ClientHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private var decoder: LengthPrefixedMessageDecoder
    private let router: ResponseRouter

    init(router: ResponseRouter, maximumMessageLength: Int) {
        self.router = router
        decoder = LengthPrefixedMessageDecoder(maximumMessageLength: maximumMessageLength)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        decoder.append(contentsOf: unwrapInboundIn(data).readableBytesView)
        do {
            while let message = try decoder.nextMessage(as: Faceworker_V1_WorkerMessage.self) {
                router.deliver(message)
            }
        } catch {
            // A stream that is out of step or not faceworker.v1 cannot be trusted further.
            context.close(promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        router.close()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
