import FaceWorkerProtocol
import Foundation
import WorkerCore
import XCTest

/// Subscribers that do not keep up or go away, in-process: they cost the
/// producer and the other subscribers nothing, lose only their own events,
/// are told how many, and leave nothing behind.
final class SlowSubscriberTests: XCTestCase {
    private var worker: InProcessWorker!

    override func tearDown() async throws {
        await worker?.stop()
    }

    /// Frames answered while the slow subscriber does not read.
    private static let backlog: Int64 = 60

    /// The slow subscriber's client reads nothing while 60 frames are
    /// answered, so none of its events is written: only `--subscriber-queue`
    /// of them may wait in the worker, the others are counted.
    func testASubscriberThatNeverReadsDoesNotHoldTheProducerBackAndLearnsWhatItMissed() async throws {
        var limits = WorkerLimits()
        limits.subscriberQueue = 4
        worker = InProcessWorker(limits: limits)
        var producer = try await worker.connect()
        let session = try await producer.open(.with { $0.runningMode = .image; $0.outputFaceMesh = true }, name: "busy")
        var slow = try await worker.connect(reading: false)
        let slowCall = try await slow.sendSubscribe(to: "busy")
        var reader = try await worker.connect()
        let subscription = try await reader.subscribe(to: "busy")
        XCTAssertEqual(subscription.queueLimit, 4)
        let bothAttached = try await producer.stats().subscriptions
        XCTAssertEqual(bothAttached, 2)

        for timestamp in 1...Self.backlog {
            let result = try await producer.result(of: session, timestampMs: timestamp)
            XCTAssertEqual(result.faces.count, 1, "the producer is answered while the subscriber does not read")
            try await Self.expectResult(timestamp, on: reader)
        }

        try await slow.startReading()
        let subscribed = try await slow.receive()
        guard case .subscribe = subscribed.kind else { return XCTFail("the SubscribeResponse comes first: \(subscribed)") }
        XCTAssertEqual(subscribed.callID, slowCall)
        var expected: Int64 = 1
        var missed: UInt64 = 0
        while expected <= Self.backlog {
            Self.follow(try await Self.event(on: slow), expected: &expected, missed: &missed)
        }
        for timestamp in Self.backlog + 1...Self.backlog + 3 {
            _ = try await producer.result(of: session, timestampMs: timestamp)
            try await Self.expectResult(timestamp, on: reader)
        }
        try await producer.sendClose(session)
        guard case .closeSession = try await producer.receive().kind else { return XCTFail("the close is answered") }
        while true {
            let event = try await Self.event(on: slow)
            if case .sessionEnded(let ended)? = event.event {
                XCTAssertEqual(ended.reason, .sessionClosed)
                break
            }
            Self.follow(event, expected: &expected, missed: &missed)
        }
        XCTAssertEqual(expected, Self.backlog + 4, "every event was either received, in order, or counted as missed")
        XCTAssertEqual(missed, UInt64(Self.backlog - 4), "only --subscriber-queue events waited for the subscriber that did not read")
        let stats = try await producer.stats()
        XCTAssertEqual(stats.eventsMissed, missed, "GetStats counts what the subscriber was told it missed")

        let end = try await reader.eventsUntilEnded()
        XCTAssertEqual(end.count, 1, "the subscriber that reads missed nothing: \(end)")
        XCTAssertEqual(end.last?.sessionEnded.reason, .sessionClosed)
    }

    func testASubscriberThatDisconnectsMidStreamLeavesTheOthersGoing() async throws {
        worker = InProcessWorker()
        var producer = try await worker.connect()
        let session = try await producer.open(.with { $0.runningMode = .image }, name: "crowd")
        var subscribers: [InProcessConnection] = []
        for _ in 0..<3 {
            var subscriber = try await worker.connect()
            _ = try await subscriber.subscribe(to: "crowd")
            subscribers.append(subscriber)
        }
        for timestamp: Int64 in 1...3 { _ = try await producer.result(of: session, timestampMs: timestamp) }
        try await subscribers[1].channel.close()
        let left = try await producer.stats().subscriptions
        XCTAssertEqual(left, 2, "the gone subscriber's subscription ended")
        for timestamp: Int64 in 4...6 { _ = try await producer.result(of: session, timestampMs: timestamp) }
        try await producer.sendClose(session)
        guard case .closeSession = try await producer.receive().kind else { return XCTFail("the close is answered") }

        for index in [0, 2] {
            let events = try await subscribers[index].eventsUntilEnded()
            XCTAssertEqual(events.compactMap(Heard.init(event:)), (1...6).map { .result($0) })
            XCTAssertEqual(events.last?.sessionEnded.reason, .sessionClosed, "SESSION_CLOSED comes last")
        }
        let stats = try await producer.stats()
        XCTAssertEqual(stats.subscriptions, 0)
        XCTAssertEqual(stats.eventsMissed, 0)
    }

    /// The reading subscriber takes each event as it comes, as a client
    /// reading its socket does, so its queue never fills: it gets the
    /// frame's result, nothing missed before it.
    private static func expectResult(_ timestamp: Int64, on reader: InProcessConnection,
                                     file: StaticString = #filePath, line: UInt = #line) async throws {
        let event = try await event(on: reader)
        XCTAssertEqual(Heard(event: event), .result(timestamp), "the subscriber that reads misses nothing", file: file, line: line)
    }

    /// The next event of a subscription.
    private static func event(on connection: InProcessConnection) async throws -> Faceworker_V1_SessionEvent {
        let message = try await connection.receive()
        guard case .sessionEvent(let event) = message.kind else { throw UnexpectedAnswer(message) }
        return event
    }

    /// Checks one event against the frames sent with timestamps 1, 2, 3...:
    /// a result is the next one not missed, a missed count skips that many.
    private static func follow(_ event: Faceworker_V1_SessionEvent, expected: inout Int64, missed: inout UInt64) {
        switch event.event {
        case .frameResult(let result)?:
            XCTAssertEqual(result.timestampMs, expected, "results come in order, after what was missed")
            expected = result.timestampMs + 1
        case .eventsMissed(let lost)?:
            XCTAssertGreaterThan(lost.count, 0)
            missed += lost.count
            expected += Int64(lost.count)
        default:
            XCTFail("unexpected event \(event)")
        }
    }
}
