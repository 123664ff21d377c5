import FaceWorkerProtocol
import NIOCore

/// Reads the worker's messages, as the wire's decoder splits them, and
/// routes them; a stream that breaks the framing or is not faceworker.v1
/// closes the connection with the reason, which every waiting call then gets.
///
/// Every such fault is DATA_LOSS, as the Python and C clients report it:
/// nothing more that arrives on the connection can be trusted.
final class ClientHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let router: ResponseRouter

    init(router: ResponseRouter) {
        self.router = router
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let payload = unwrapInboundIn(data)
        do {
            router.deliver(try Faceworker_V1_WorkerMessage(serializedBytes: payload.readableBytesSpan))
        } catch {
            fail(context: context, FaceWorkerError(code: .dataLoss, message: "the worker sent a message that is not a faceworker.v1.WorkerMessage: \(error)"))
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        router.close()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if case ByteToMessageDecoderError.dataReceivedInErrorState = error { return }
        if let framing = error as? FramingError {
            fail(context: context, FaceWorkerError(code: .dataLoss, message: "the worker's stream broke the framing: \(framing)"))
        } else {
            fail(context: context, FaceWorkerError(code: .unavailable, message: "the connection to the worker failed: \(error)"))
        }
    }

    private func fail(context: ChannelHandlerContext, _ error: FaceWorkerError) {
        router.close(with: error)
        context.close(promise: nil)
    }
}
