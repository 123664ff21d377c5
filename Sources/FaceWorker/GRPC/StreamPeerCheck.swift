import NIOCore
import NIOHPACK
import NIOHTTP2

/// Refuses one HTTP/2 stream of a peer the worker's policy does not allow:
/// it answers at once with a trailers-only gRPC response carrying
/// PERMISSION_DENIED and the same message the worker's own socket sends, and
/// drops whatever the stream carries, so no call of that peer reaches the
/// service.
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
        let headers: HPACKHeaders = [
            ":status": "200",
            "content-type": "application/grpc",
            "grpc-status": "\(refusal.code.rawValue)",
            "grpc-message": Self.percentEncoded(refusal.message),
        ]
        context.writeAndFlush(wrapOutboundOut(.headers(.init(headers: headers, endStream: true))), promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}

    /// gRPC's encoding of a status message: bytes outside printable ASCII,
    /// and `%`, as `%XX`.
    static func percentEncoded(_ message: String) -> String {
        var encoded = ""
        for byte in message.utf8 {
            if (0x20...0x7E).contains(byte) && byte != UInt8(ascii: "%") {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                encoded += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return encoded
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
