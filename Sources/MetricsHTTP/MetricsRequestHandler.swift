import NIOCore
import NIOHTTP1

/// Answers one HTTP request on a metrics connection, then closes it:
/// `GET /metrics` gets the exposition, another method on /metrics 405 (with
/// `Allow: GET`), any other path 404, a request past the size limit 431 (and
/// one that is not HTTP 400, from NIO's error handler).
final class MetricsRequestHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// The path served.
    static let path = "/metrics"
    /// The media type of Prometheus' text format 0.0.4.
    static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    private let exposition: @Sendable () -> [UInt8]
    private var head: HTTPRequestHead?
    private var answered = false

    /// A handler that renders the metrics with `exposition`.
    init(exposition: @escaping @Sendable () -> [UInt8]) {
        self.exposition = exposition
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
        case .body:
            break
        case .end:
            // Answered once the request is whole, so no unread request bytes
            // make the close reset the connection under the answer.
            guard let head else { return }
            answer(context: context, to: head)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is MetricsRequestLimit.Exceeded else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        respond(context: context, .requestHeaderFieldsTooLarge, text: "the request is too large: a scrape is GET /metrics with a few header fields\n")
    }

    /// A request the decoder cannot parse was answered 400 by NIO's error
    /// handler before this; the connection has nothing more to say.
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        answered = true
        context.close(promise: nil)
    }

    private func answer(context: ChannelHandlerContext, to head: HTTPRequestHead) {
        let path = head.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        guard path == Self.path else {
            respond(context: context, .notFound, text: "not found: this endpoint serves GET \(Self.path) only\n")
            return
        }
        guard head.method == .GET else {
            respond(context: context, .methodNotAllowed, text: "method \(head.method.rawValue) not allowed: \(Self.path) answers GET only\n",
                    extraHeaders: [("Allow", "GET")])
            return
        }
        respond(context: context, .ok, body: exposition(), contentType: Self.contentType)
    }

    private func respond(context: ChannelHandlerContext, _ status: HTTPResponseStatus, text: String, extraHeaders: [(String, String)] = []) {
        respond(context: context, status, body: Array(text.utf8), contentType: "text/plain; charset=utf-8", extraHeaders: extraHeaders)
    }

    private func respond(context: ChannelHandlerContext, _ status: HTTPResponseStatus, body: [UInt8], contentType: String,
                         extraHeaders: [(String, String)] = []) {
        guard !answered else { return }
        answered = true
        var headers = HTTPHeaders([("Content-Type", contentType), ("Content-Length", "\(body.count)"), ("Connection", "close")])
        headers.add(contentsOf: extraHeaders)
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: body)))), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }
}
