import FaceWorkerClient
import FaceWorkerProtocol
import NIOCore
import NIOPosix
import XCTest

/// The Swift client says why a connection ended when the worker's stream is
/// not one it can read, instead of closing silently: DATA_LOSS, as the Python
/// and C clients report it, with what was wrong; and a client that closes
/// ends its own subscriptions with UNAVAILABLE. Each against a fake worker in
/// this process.
final class ClientErrorTests: XCTestCase {
    /// A listener on a fresh socket that answers every connection with `bytes`.
    private func fakeWorker(sending bytes: [UInt8]) async throws -> String {
        try await fakeWorker { channel in
            var buffer = channel.allocator.buffer(capacity: bytes.count)
            buffer.writeBytes(bytes)
            // Written once the client's first call is in, so the call is waiting for its answer.
            try channel.pipeline.syncOperations.addHandler(AnswerOnFirstRead(answer: buffer))
        }
    }

    func testAFlagByteTheClientDoesNotSupportIsReportedAsWhatItIs() async throws {
        let client = try await FaceWorkerClient.connect(socketPath: try await fakeWorker(sending: [1, 0, 0, 0, 0]))
        let error = await Expect.failure { try await client.ping() }
        XCTAssertEqual(error?.code, .dataLoss)
        XCTAssertTrue(error?.message.contains("broke the framing") == true && error?.message.contains("compressed") == true, error?.message ?? "")
    }

    func testAStoppingWorkerIsToldFromACutConnection() async throws {
        var stopping = Faceworker_V1_WorkerMessage()
        stopping.error.code = .unavailable
        stopping.error.message = "the worker is shutting down"
        let refusing = try await fakeWorker(sending: try TestFraming.frame(stopping))
        let refused = await Expect.failure { try await FaceWorkerClient.connect(socketPath: refusing, reconnect: nil).ping() }
        XCTAssertEqual(refused?.code, .unavailable)
        XCTAssertEqual(refused?.isWorkerStopping, true, "the worker said it is stopping: \(String(describing: refused))")

        let hangingUp = try await fakeWorker(sending: [])
        let cut = await Expect.failure { try await FaceWorkerClient.connect(socketPath: hangingUp, reconnect: nil).ping() }
        XCTAssertEqual(cut?.code, .unavailable)
        XCTAssertEqual(cut?.isWorkerStopping, false, "a connection cut without a word is no stopping worker: \(String(describing: cut))")
    }

    func testAnAnswerLongerThanTheCapIsRefusedFromItsHeader() async throws {
        let length = UInt32(WorkerSocket.maxAnswerBytes + 1)
        let header = [0, UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
        let client = try await FaceWorkerClient.connect(socketPath: try await fakeWorker(sending: header))
        let error = await Expect.failure { try await client.ping() }
        XCTAssertEqual(error?.code, .dataLoss)
        XCTAssertTrue(error?.message.contains("exceeds the maximum of \(WorkerSocket.maxAnswerBytes) bytes") == true, error?.message ?? "")
    }

    func testAStreamCutInsideAnAnswerIsDataLoss() async throws {
        let client = try await FaceWorkerClient.connect(socketPath: try await fakeWorker(sending: [0, 0, 0, 0, 9, 1, 2]))
        let error = await Expect.failure { try await client.ping() }
        XCTAssertEqual(error?.code, .dataLoss)
        XCTAssertTrue(error?.message.contains("7 of 14 bytes") == true, error?.message ?? "")
    }

    func testAnAnswerThatIsNotAWorkerMessageIsReported() async throws {
        let client = try await FaceWorkerClient.connect(socketPath: try await fakeWorker(sending: [0, 0, 0, 0, 2, 0xFF, 0xFF]))
        let error = await Expect.failure { try await client.ping() }
        XCTAssertEqual(error?.code, .dataLoss)
        XCTAssertTrue(error?.message.contains("not a faceworker.v1.WorkerMessage") == true, error?.message ?? "")
    }
    /// The worker never ends the subscription here, so only the client's close can.
    func testAClientThatClosesEndsItsSubscriptionsWithUnavailable() async throws {
        let path = try await fakeWorker { channel in
            try channel.pipeline.syncOperations.addHandlers([
                ByteToMessageHandler(LengthPrefixedMessageDecoder(maximumMessageLength: WorkerSocket.maxAnswerBytes)),
                AcceptSubscriptions(),
            ])
        }
        let client = try await FaceWorkerClient.connect(socketPath: path, reconnect: nil)
        let subscription = try await client.subscribe(to: "crowd")
        let listener = Task { for try await _ in subscription {} }
        await client.close()
        do {
            try await listener.value
            XCTFail("the closed client's sequence ends with the connection's error")
        } catch let error as FaceWorkerError {
            XCTAssertEqual(error.code, .unavailable)
        }
    }
}

/// Accepts every Subscribe as a worker serving the session would, and says
/// nothing more, keeping the connection open.
private final class AcceptSubscriptions: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let payload = unwrapInboundIn(data)
        guard let call = try? Faceworker_V1_ClientMessage(serializedBytes: Array(payload.readableBytesView)),
              case .subscribe = call.kind else { return }
        var answer = Faceworker_V1_WorkerMessage()
        answer.callID = call.callID
        answer.subscribe.subscriptionID = 1
        guard let bytes = try? TestFraming.frame(answer) else { return }
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(bytes: bytes)), promise: nil)
    }
}

/// Writes its answer when the first bytes arrive; closes after the answer
/// for a cut stream to be seen as such.
private final class AnswerOnFirstRead: ChannelInboundHandler, RemovableChannelHandler, Sendable {
    typealias InboundIn = ByteBuffer
    private let answer: ByteBuffer

    init(answer: ByteBuffer) {
        self.answer = answer
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let channel = context.channel
        context.writeAndFlush(NIOAny(answer)).whenComplete { _ in channel.close(promise: nil) }
        context.pipeline.syncOperations.removeHandler(self, promise: nil)
    }
}
