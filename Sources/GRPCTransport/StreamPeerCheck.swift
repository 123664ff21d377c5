import FaceWorkerProtocol
import NIOCore
import NIOHPACK
import NIOHTTP2
import WorkerCore

/// Refuses one HTTP/2 stream of a peer the worker's policy does not allow:
/// it answers at once with a trailers-only gRPC response carrying
/// PERMISSION_DENIED and the same message the worker's own socket sends,
/// resets the stream and drops whatever it still carries, so no call of that
/// peer reaches the service.
///
/// The check is per stream because gRPC has no place for an answer to a
/// connection; the connection stays open and every call on it is refused
/// alike.
final class StreamPeerCheck: ChannelInboundHandler {
    typealias InboundIn = HTTP2Frame.FramePayload
    typealias OutboundOut = HTTP2Frame.FramePayload

    private let refusal: CallError

    init(refusal: CallError) {
        self.refusal = refusal
    }

    func handlerAdded(context: ChannelHandlerContext) {
        for frame in HTTP2Frame.FramePayload.endingCall(Faceworker_V1_Status.Code(refusal.code), refusal.message, responseStarted: false) {
            context.write(wrapOutboundOut(frame), promise: nil)
        }
        context.flush()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}
}
