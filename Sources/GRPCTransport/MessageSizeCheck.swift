import FaceWorkerProtocol
import Logging
import NIOCore
import NIOHPACK
import NIOHTTP2
import WorkerCore

/// Ends a gRPC call whose client sends a message over `--max-message-bytes`
/// with RESOURCE_EXHAUSTED and the message the worker's own socket gives,
/// decided from the message's 5-byte prefix, before its bytes are buffered.
///
/// grpc-swift would reset such a stream without a status, which a client
/// sees only as a cancelled call. So this handler sits in front of it on
/// each HTTP/2 stream, follows the length prefixes of the request's DATA
/// frames, and on the first message over the limit answers with the status
/// (as trailers, or as a trailers-only response when nothing was sent yet),
/// drops the rest of the request and resets the stream, which ends the call
/// on the worker's side too.
final class MessageSizeCheck: ChannelDuplexHandler {
    typealias InboundIn = HTTP2Frame.FramePayload
    typealias InboundOut = HTTP2Frame.FramePayload
    typealias OutboundIn = HTTP2Frame.FramePayload
    typealias OutboundOut = HTTP2Frame.FramePayload

    private static let prefixLength = 5

    private let maximum: Int
    private let stats: FrameCounters
    private let logger: Logger
    private var prefix: [UInt8] = []
    private var bodyLeft = 0
    private var responseStarted = false
    private var refused = false

    init(maximum: Int, stats: FrameCounters, logger: Logger) {
        self.maximum = maximum
        self.stats = stats
        self.logger = logger
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        if case .data(let frame) = unwrapInboundIn(data), case .byteBuffer(var bytes) = frame.data, let length = oversizedMessage(in: &bytes) {
            refuse(context: context, FramingError.messageTooLarge(length: length, maximum: maximum))
            return
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard !refused else {
            promise?.fail(ChannelError.ioOnClosedChannel)
            return
        }
        if case .headers = unwrapOutboundIn(data) { responseStarted = true }
        context.write(data, promise: promise)
    }

    /// Follows the message prefixes in `bytes`; the declared length of the
    /// first message over the maximum, if one starts here.
    private func oversizedMessage(in bytes: inout ByteBuffer) -> Int? {
        while bytes.readableBytes > 0 {
            if bodyLeft > 0 {
                let skipped = min(bodyLeft, bytes.readableBytes)
                bytes.moveReaderIndex(forwardBy: skipped)
                bodyLeft -= skipped
                continue
            }
            let taken = min(Self.prefixLength - prefix.count, bytes.readableBytes)
            prefix += bytes.readBytes(length: taken) ?? []
            guard prefix.count == Self.prefixLength else { return nil }
            let length = prefix[1...].reduce(0) { $0 << 8 | Int($1) }
            prefix = []
            guard length <= maximum else { return length }
            bodyLeft = length
        }
        return nil
    }

    private func refuse(context: ChannelHandlerContext, _ error: FramingError) {
        refused = true
        let status = Faceworker_V1_Status(error)
        logger.notice("gRPC call ended: broken framing", metadata: ["message": "\(error)"])
        stats.metrics?.recordError(label: status.code.metricLabel)
        for frame in HTTP2Frame.FramePayload.endingCall(status.code, status.message, responseStarted: responseStarted) {
            context.write(wrapOutboundOut(frame), promise: nil)
        }
        context.flush()
    }
}
