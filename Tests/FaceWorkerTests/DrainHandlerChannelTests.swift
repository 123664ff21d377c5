@testable import WorkerCore
@testable import SocketTransport
import NIOCore
import NIOEmbedded
import XCTest

/// The lean socket's drain in a channel fed by hand: a connection the worker
/// drains closes once every call it read has its answer written, and not
/// before; a subscription's call is answered by its end, not its opening.
final class DrainHandlerChannelTests: XCTestCase {
    private static func channel() throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(ConnectionDrainHandler())
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        return channel
    }

    private static func call(_ channel: EmbeddedChannel) throws {
        try channel.writeInbound(channel.allocator.buffer(bytes: [0]))
        _ = try channel.readInbound(as: ByteBuffer.self)
    }

    private static func answer(_ channel: EmbeddedChannel) throws {
        try channel.writeAndFlush(channel.allocator.buffer(bytes: [1])).wait()
    }

    private static func drain(_ channel: EmbeddedChannel) {
        channel.pipeline.fireUserInboundEventTriggered(ConnectionHandler.DrainEvent())
    }

    func testADrainingConnectionClosesOnceEveryCallIsAnswered() throws {
        let channel = try Self.channel()
        try Self.call(channel)
        try Self.call(channel)
        try Self.answer(channel)
        Self.drain(channel)
        channel.embeddedEventLoop.run()
        XCTAssertTrue(channel.isActive, "one call still waits for its answer")
        try Self.answer(channel)
        channel.embeddedEventLoop.run()
        XCTAssertFalse(channel.isActive, "every call is answered: the connection closes")
    }

    func testAConnectionNotDrainingStaysOpenWhenItsCallsAreAnswered() throws {
        let channel = try Self.channel()
        try Self.call(channel)
        try Self.answer(channel)
        channel.embeddedEventLoop.run()
        XCTAssertTrue(channel.isActive)
        Self.drain(channel)
        channel.embeddedEventLoop.run()
        XCTAssertFalse(channel.isActive, "nothing is owed when the drain comes: it closes at once")
    }

    func testASubscriptionIsOwedItsEndNotItsOpening() throws {
        let channel = try Self.channel()
        try Self.call(channel)
        let opening = StreamWrite(isEnd: false, bytes: channel.allocator.buffer(bytes: [2]))
        try channel.writeAndFlush(opening).wait()
        Self.drain(channel)
        channel.embeddedEventLoop.run()
        XCTAssertTrue(channel.isActive, "the subscription's end is still owed")
        try channel.writeAndFlush(StreamWrite(isEnd: false, bytes: channel.allocator.buffer(bytes: [3]))).wait()
        channel.embeddedEventLoop.run()
        XCTAssertTrue(channel.isActive, "an event between opening and end answers nothing")
        try channel.writeAndFlush(StreamWrite(isEnd: true, bytes: channel.allocator.buffer(bytes: [4]))).wait()
        channel.embeddedEventLoop.run()
        XCTAssertFalse(channel.isActive, "the end answers the Subscribe call")
        var written: [UInt8] = []
        while let buffer = try channel.readOutbound(as: ByteBuffer.self) { written += buffer.readableBytesView }
        XCTAssertEqual(written, [2, 3, 4], "the stream's bytes pass through untouched")
    }
}

/// The ledger both doors count requests and answers in.
final class AnswerLedgerTests: XCTestCase {
    func testAWaitForRoomEndsWhenEnoughAnswersAreWritten() async {
        let ledger = AnswerLedger()
        ledger.requested(3)
        XCTAssertFalse(ledger.isSettled)
        let waiting = Task { await ledger.wait(untilUnansweredAtMost: 1) }
        ledger.answered()
        ledger.answered()
        await waiting.value
        ledger.answered()
        XCTAssertTrue(ledger.isSettled)
    }

    func testAnAbandonedLedgerReleasesItsWaiter() async {
        let ledger = AnswerLedger()
        ledger.requested()
        let waiting = Task { await ledger.wait(untilUnansweredAtMost: 0) }
        ledger.abandon()
        await waiting.value
        XCTAssertFalse(ledger.isSettled, "abandoning answers nothing; it only ends the wait")
    }

    func testDrainingIsRemembered() {
        let ledger = AnswerLedger()
        XCTAssertFalse(ledger.isDraining)
        ledger.drain()
        XCTAssertTrue(ledger.isDraining)
    }
}
