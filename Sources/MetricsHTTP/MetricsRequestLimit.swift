import NIOCore

/// Stops reading a metrics connection once its request passes `maxBytes`,
/// before the HTTP decoder sees more, and tells the request handler, which
/// answers 431. A scrape is one short GET, so the limit covers the whole
/// request: the request line (which NIO's decoder does not bound) and the
/// header fields alike.
final class MetricsRequestLimit: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// The request passed the limit; what came after is discarded.
    struct Exceeded: Sendable {}

    private let maxBytes: Int
    private var received = 0
    private var exceeded = false

    /// A limit of `maxBytes` per connection.
    init(maxBytes: Int) {
        self.maxBytes = maxBytes
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !exceeded else { return }
        received += unwrapInboundIn(data).readableBytes
        guard received <= maxBytes else {
            exceeded = true
            try? context.channel.syncOptions?.setOption(ChannelOptions.autoRead, value: false)
            context.fireUserInboundEventTriggered(Exceeded())
            return
        }
        context.fireChannelRead(data)
    }
}
