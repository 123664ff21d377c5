import FaceWorkerProtocol
import NIOCore
import NIOPosix

/// One connection to a worker: its channel and the router of its answers.
struct Link: Sendable, Identifiable {
    let channel: any Channel
    let router: ResponseRouter

    /// A router serves one connection only, and the client's callbacks name
    /// the connection by it.
    var id: ObjectIdentifier { ObjectIdentifier(router) }

    /// Connects to the worker listening on `socketPath`.
    static func open(socketPath: String, maxMessageBytes: Int, reconnects: Bool) async throws -> Link {
        let router = ResponseRouter(reconnects: reconnects)
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandlers(
                        ByteToMessageHandler(LengthPrefixedMessageDecoder(maximumMessageLength: maxMessageBytes)),
                        MessageToByteHandler(LengthPrefixedMessageEncoder<Faceworker_V1_ClientMessage>()),
                        ClientHandler(router: router))
                }
            }
            .connect(unixDomainSocketPath: socketPath)
            .get()
        return Link(channel: channel, router: router)
    }

    /// Sends `message` and waits for its answer; `frameOf` names the session
    /// of a ProcessFrame call.
    func send(_ message: Faceworker_V1_ClientMessage, frameOf session: UInt64? = nil) async throws -> Faceworker_V1_WorkerMessage {
        try await withCheckedThrowingContinuation { continuation in
            if let error = router.expect(message.callID, continuation, frameOf: session) {
                continuation.resume(throwing: error)
                return
            }
            let router = router
            channel.writeAndFlush(message).whenFailure { error in
                router.abandon(message.callID, with: router.closedWith ?? FaceWorkerError(code: .unavailable, message: "cannot send to the worker: \(error)"))
            }
        }
    }

    /// Closes the connection.
    func close() async {
        try? await channel.close().get()
    }
}
