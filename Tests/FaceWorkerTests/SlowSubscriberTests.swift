import FaceWorkerClient
import FaceWorkerProtocol
import Foundation
import XCTest

/// Subscribers that do not keep up or go away: they cost the producer and
/// the other subscribers nothing, lose only their own events, are told how
/// many, and leave nothing behind.
final class SlowSubscriberTests: XCTestCase {
    /// Frames answered while the slow subscriber does not read.
    private static let backlog = 60

    /// The subscriber below never reads while 60 frames with the face mesh
    /// (about 6 KB of answer each) are answered: more than the kernel holds
    /// for one Unix socket (its send buffer, 208 KB by default; a receive
    /// buffer does not limit a Unix stream socket), so its events pile up in
    /// the worker, where only `--subscriber-queue` of them may wait.
    func testASubscriberThatNeverReadsDoesNotHoldTheProducerBackAndLearnsWhatItMissed() async throws {
        let worker = try await startWorker(["--subscriber-queue", "4"])
        let producer = try await worker.connect()
        let session = try await producer.openSession(options: Expect.options(.image) { $0.outputFaceMesh = true }, name: "busy")
        let slow = try UnixSocket(path: worker.socketPath)
        try slow.send(.subscribe(callID: 3, name: "busy"))
        let reader = try await worker.connect()
        let subscription = try await reader.subscribe(to: "busy")
        XCTAssertEqual(subscription.queueLimit, 4)
        let listener = Task { try await subscription.collect() }
        let bothAttached = try await producer.waitForSubscriptions(2)
        XCTAssertTrue(bothAttached)

        let photo = try TestPaths.jpeg("astronaut.jpg")
        for timestamp in 1...Self.backlog {
            let result = try await session.process(jpeg: photo, timestampMs: Int64(timestamp))
            XCTAssertEqual(result.faces.count, 1)
        }

        var expected: Int64 = 1
        var missed: UInt64 = 0
        guard case .subscribe? = try slow.receive()?.kind else { return XCTFail("the SubscribeResponse comes first") }
        while missed == 0 {
            let event = try XCTUnwrap(try slow.receive()).sessionEvent
            Self.follow(event, expected: &expected, missed: &missed)
        }
        for timestamp in Self.backlog + 1...Self.backlog + 3 {
            _ = try await session.process(jpeg: photo, timestampMs: Int64(timestamp))
        }
        try await session.close()
        while true {
            let event = try XCTUnwrap(try slow.receive()).sessionEvent
            if case .sessionEnded(let ended)? = event.event {
                XCTAssertEqual(ended.reason, .sessionClosed)
                break
            }
            Self.follow(event, expected: &expected, missed: &missed)
        }
        XCTAssertEqual(expected, Int64(Self.backlog + 4), "every event was either received, in order, or counted as missed")
        XCTAssertGreaterThanOrEqual(missed, 1)
        let stats = try await producer.stats()
        XCTAssertEqual(stats.eventsMissed, missed, "GetStats counts what the subscriber was told it missed")

        let events = try await listener.value
        XCTAssertEqual(events.compactMap(Heard.init(event:)), (1...Int64(Self.backlog + 3)).map { .result($0) }, "the subscriber that reads misses nothing")
    }

    func testASubscriberThatDisconnectsMidStreamLeavesTheOthersGoing() async throws {
        let worker = try await startWorker()
        let producer = try await worker.connect()
        let session = try await producer.openSession(options: Expect.options(.image), name: "crowd")
        var clients: [FaceWorkerClient] = []
        var listeners: [Task<[SubscriptionEvent], any Error>] = []
        for _ in 0..<3 {
            let client = try await worker.connect()
            let subscription = try await client.subscribe(to: "crowd")
            clients.append(client)
            listeners.append(Task { try await subscription.collect() })
        }
        let photo = try TestPaths.jpeg("astronaut.jpg")
        for timestamp in 1...3 { _ = try await session.process(jpeg: photo, timestampMs: Int64(timestamp)) }
        await clients[1].close()
        let oneGone = try await producer.waitForSubscriptions(2)
        XCTAssertTrue(oneGone, "the gone subscriber's subscription ended")
        for timestamp in 4...6 { _ = try await session.process(jpeg: photo, timestampMs: Int64(timestamp)) }
        try await session.close()

        for index in [0, 2] {
            let events = try await listeners[index].value
            XCTAssertEqual(events.compactMap(Heard.init(event:)), (1...6).map { .result($0) })
            guard case .ended(.sessionClosed)? = events.last else { return XCTFail("SESSION_CLOSED comes last: \(events)") }
        }
        do {
            _ = try await listeners[1].value
            XCTFail("the closed client's sequence ends with the connection's error")
        } catch let error as FaceWorkerError {
            XCTAssertEqual(error.code, .unavailable)
        }
        let allEnded = try await producer.waitForSubscriptions(0)
        XCTAssertTrue(allEnded)
        let missed = try await producer.stats().eventsMissed
        XCTAssertEqual(missed, 0)
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
