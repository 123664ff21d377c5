import FaceWorkerClient
import FaceWorkerProtocol
import Foundation
import Glibc
import struct WorkerCore.WorkerLimits
import XCTest

/// Named sessions and their subscriptions: names, refusals, limits, every
/// subscriber hearing what the producer hears, and how subscriptions end.
final class NamedSessionTests: XCTestCase {
    func testANameIsEchoedUniqueAndFreeAgainOnceItsSessionClosesOrItsConnectionGoes() async throws {
        let worker = try await startWorker()
        let first = try await worker.connect()
        let other = try await worker.connect()
        let session = try await first.openSession(options: Expect.options(.image), name: "front door")
        XCTAssertEqual(session.name, "front door", "OpenSessionResponse.name echoes it")
        let private_ = try await first.openSession(options: Expect.options(.image))
        XCTAssertNil(private_.name, "a session opened without a name is private")

        let taken = await Expect.failure { try await other.openSession(name: "front door") }
        XCTAssertEqual(taken?.code, .alreadyExists)
        XCTAssertTrue(taken?.message.contains("\"front door\"") ?? false, taken?.message ?? "")
        try await Expect.stillServes(session)

        try await session.close()
        let reopened = try await other.openSession(options: Expect.options(.image), name: "front door")
        XCTAssertEqual(reopened.name, "front door", "a closed session's name is free again")

        await other.close()
        var freed = false
        for _ in 0..<500 where !freed {
            freed = (try? await first.openSession(name: "front door")) != nil
            if !freed { try await Task.sleep(for: .milliseconds(10)) }
        }
        XCTAssertTrue(freed, "the name is free once its connection has gone")
    }

    func testANameThatIsEmptyTooLongOrHoldsAControlCharacterIsRefused() async throws {
        let worker = try await startWorker()
        let client = try await worker.connect()
        let longest = String(repeating: "é", count: 64)
        let longestName = try await client.openSession(name: longest).name
        XCTAssertEqual(longestName, longest, "128 bytes of UTF-8 is allowed")
        for (name, says) in [
            ("", "empty"), (longest + "a", "129 bytes"), ("line\nbreak", "U+000A"), ("bell\u{7}", "U+0007"),
            ("delete\u{7F}", "U+007F"), ("next\u{85}line", "U+0085"),
        ] {
            let refused = await Expect.failure { try await client.openSession(name: name) }
            XCTAssertEqual(refused?.code, .invalidArgument, name.debugDescription)
            XCTAssertTrue(refused?.message.contains(says) ?? false, refused?.message ?? "")
            XCTAssertTrue(refused?.message.contains("1 to 128 bytes of UTF-8 without control characters") ?? false, "the rule is named")
        }
        let sessionsLeft = try await client.stats().sessions
        XCTAssertEqual(sessionsLeft, 1, "no refused name left a session behind")
    }

    func testSubscribeRefusesAnEmptyOrUnknownNameAndTheConnectionsOwnSession() async throws {
        let worker = try await startWorker()
        let producer = try await worker.connect()
        let session = try await producer.openSession(options: Expect.options(.image), name: "mine")

        let own = await Expect.failure { try await producer.subscribe(to: "mine") }
        XCTAssertEqual(own?.code, .failedPrecondition)
        XCTAssertEqual(own?.sessionID, session.id)
        let empty = await Expect.failure { try await producer.subscribe(to: "") }
        XCTAssertEqual(empty?.code, .invalidArgument)
        let unknown = await Expect.failure { try await producer.subscribe(to: "nobody") }
        XCTAssertEqual(unknown?.code, .notFound)
        XCTAssertTrue(unknown?.message.contains("\"nobody\"") ?? false, unknown?.message ?? "")

        let stats = try await producer.stats()
        XCTAssertEqual(stats.subscriptions, 0)
        try await Expect.stillServes(session)
    }

    func testTheSubscriberLimitsAreEnforcedAndFreedAgain() async throws {
        let worker = try await startWorker(["--max-subscribers-per-session", "2", "--max-subscriptions-per-connection", "2"])
        let producer = try await worker.connect()
        _ = try await producer.openSession(options: Expect.options(.image), name: "a")
        _ = try await producer.openSession(options: Expect.options(.image), name: "b")
        _ = try await producer.openSession(options: Expect.options(.image), name: "c")
        let first = try await worker.connect()
        let second = try await worker.connect()
        let third = try await worker.connect()

        _ = try await first.subscribe(to: "a")
        let held = try await second.subscribe(to: "a")
        let crowded = await Expect.failure { try await third.subscribe(to: "a") }
        XCTAssertEqual(crowded?.code, .resourceExhausted)
        XCTAssertTrue(crowded?.message.contains("--max-subscribers-per-session") ?? false, crowded?.message ?? "")

        _ = try await first.subscribe(to: "b")
        let busy = await Expect.failure { try await first.subscribe(to: "c") }
        XCTAssertEqual(busy?.code, .resourceExhausted)
        XCTAssertTrue(busy?.message.contains("--max-subscriptions-per-connection") ?? false, busy?.message ?? "")
        let open = try await producer.stats().subscriptions
        XCTAssertEqual(open, 3)

        try await held.unsubscribe()
        _ = try await third.subscribe(to: "a")
        let openAfter = try await producer.stats().subscriptions
        XCTAssertEqual(openAfter, 3, "an ended subscription frees its place")
    }

    func testAZeroSubscriberLimitIsRefusedAtStart() throws {
        for keyPath in [\WorkerLimits.maxSubscribersPerSession, \.maxSubscriptionsPerConnection, \.subscriberQueue] {
            var limits = WorkerLimits()
            limits[keyPath: keyPath] = 0
            XCTAssertThrowsError(try limits.validate())
        }
    }

    /// A live stream whose frames wait (one inference thread) so that some
    /// are replaced, a stale timestamp, a reset and a close: the producer and
    /// three subscribers hear the same things in the same order.
    func testTheProducerAndEverySubscriberHearTheSameSequence() async throws {
        let worker = try await startWorker(["--threads", "1"])
        let producer = try UnixSocket(path: worker.socketPath)
        try producer.send(.openSession(callID: 1, Expect.options(.liveStream) { $0.outputFaceMesh = true }, name: "live"))
        guard case .openSession(let opened)? = try producer.receive()?.kind else { return XCTFail("the session did not open") }
        XCTAssertEqual(opened.name, "live")

        var listeners: [Task<[SubscriptionEvent], any Error>] = []
        var clients: [FaceWorkerClient] = []
        for _ in 0..<3 {
            let client = try await worker.connect()
            clients.append(client)
            let subscription = try await client.subscribe(to: "live")
            XCTAssertEqual(subscription.sessionID, opened.sessionID)
            XCTAssertEqual(subscription.options, opened.options)
            XCTAssertEqual(subscription.queueLimit, 64, "the default --subscriber-queue")
            listeners.append(Task { try await subscription.collect() })
        }

        let video = try TestPaths.videoFrames()
        var calls = (1...5).map { Faceworker_V1_ClientMessage.processFrame(callID: UInt64(10 + $0), session: opened.sessionID, .jpeg(video[$0], timestampMs: Int64($0))) }
        calls.append(.processFrame(callID: 20, session: opened.sessionID, .jpeg(video[6], timestampMs: 3)))
        try producer.send(all: calls)
        var heard = try Self.answers(on: producer, through: Set(11...15).union([20]))
        try producer.send(.resetSession(callID: 30, session: opened.sessionID))
        heard += try Self.answers(on: producer, through: [30])
        try producer.send(.processFrame(callID: 31, session: opened.sessionID, .jpeg(video[0], timestampMs: 1)))
        heard += try Self.answers(on: producer, through: [31])
        try producer.send(.closeSession(callID: 32, session: opened.sessionID))
        _ = try Self.answers(on: producer, through: [32])

        XCTAssertTrue(heard.contains(Heard.failed(3, .invalidArgument)), "the stale timestamp's refusal, with its timestamp: \(heard)")
        XCTAssertTrue(heard.contains { if case .dropped(_, .replaced) = $0 { true } else { false } }, "a replaced frame: \(heard)")
        XCTAssertEqual(heard.suffix(2), [.reset, .result(1)])
        for listener in listeners {
            let events = try await listener.value
            XCTAssertEqual(events.compactMap(Heard.init(event:)), heard, "a subscriber hears what the producer hears, in order")
            guard case .ended(.sessionClosed)? = events.last else { return XCTFail("the stream ends with SESSION_CLOSED: \(events)") }
        }
        let allEnded = try await clients[0].waitForSubscriptions(0)
        XCTAssertTrue(allEnded, "the ended subscriptions are gone")
    }

    func testClosingASessionDropsItsWaitingFramesForSubscribersTooThenEndsTheirStream() async throws {
        let worker = try await startWorker(["--threads", "1"])
        let producer = try UnixSocket(path: worker.socketPath)
        try producer.send(.openSession(callID: 1, Expect.options(.video) { $0.outputFaceMesh = true }, name: "video"))
        guard case .openSession(let opened)? = try producer.receive()?.kind else { return XCTFail("the session did not open") }
        let client = try await worker.connect()
        let subscription = try await client.subscribe(to: "video")
        let listener = Task { try await subscription.collect() }

        let video = try TestPaths.videoFrames()
        try producer.send(all: (0..<6).map { .processFrame(callID: UInt64(10 + $0), session: opened.sessionID, .jpeg(video[$0], timestampMs: Int64($0))) }
            + [.closeSession(callID: 20, session: opened.sessionID)])
        let heard = try Self.answers(on: producer, through: Set(10..<16).union([20]))
        XCTAssertTrue(heard.contains { if case .dropped(_, .sessionClosed) = $0 { true } else { false } }, "the close dropped waiting frames: \(heard)")

        let events = try await listener.value
        XCTAssertEqual(events.compactMap(Heard.init(event:)), heard)
        guard case .ended(.sessionClosed)? = events.last else { return XCTFail("SESSION_CLOSED comes last: \(events)") }
        XCTAssertEqual(subscription.endReason, .sessionClosed)
    }

    func testTheProducersConnectionClosingEndsTheStreamWithProducerGone() async throws {
        let worker = try await startWorker()
        let producer = try await worker.connect()
        let session = try await producer.openSession(options: Expect.options(.image), name: "leaving")
        let client = try await worker.connect()
        let subscription = try await client.subscribe(to: "leaving")
        let listener = Task { try await subscription.collect() }
        _ = try await session.process(jpeg: try TestPaths.jpeg("astronaut.jpg"), timestampMs: 5)

        await producer.close()
        let events = try await listener.value
        XCTAssertEqual(events.compactMap(Heard.init(event:)), [.result(5)])
        guard case .ended(.producerGone)? = events.last else { return XCTFail("PRODUCER_GONE comes last: \(events)") }
        let ended = try await client.waitForSubscriptions(0)
        XCTAssertTrue(ended)
    }

    func testUnsubscribingEndsTheStreamBeforeTheAnswerAndOnlyOnce() async throws {
        let worker = try await startWorker()
        let producer = try await worker.connect()
        let session = try await producer.openSession(options: Expect.options(.image), name: "watched")
        let client = try await worker.connect()
        let subscription = try await client.subscribe(to: "watched")
        let listener = Task { try await subscription.collect() }
        _ = try await session.process(jpeg: try TestPaths.jpeg("astronaut.jpg"), timestampMs: 9)

        try await subscription.unsubscribe()
        XCTAssertEqual(subscription.endReason, .unsubscribed, "SessionEnded came before the answer")
        let events = try await listener.value
        XCTAssertEqual(events.compactMap(Heard.init(event:)), [.result(9)], "\(events)")
        guard case .ended(.unsubscribed)? = events.last else { return XCTFail("UNSUBSCRIBED comes last: \(events)") }
        let again = await Expect.failure { try await subscription.unsubscribe() }
        XCTAssertEqual(again?.code, .notFound, "an ended subscription is gone")
        let subscriptionsLeft = try await client.stats().subscriptions
        XCTAssertEqual(subscriptionsLeft, 0)
        try await Expect.stillServes(session)
        XCTAssertTrue(worker.log.contains("subscribed"), worker.log)
        XCTAssertTrue(worker.log.contains("subscription ended"), worker.log)
        XCTAssertTrue(worker.log.contains("name=watched"), worker.log)
    }

    func testShutdownEndsEverySubscriptionWithWorkerStoppingAndClosesTheSubscriberAfterIt() async throws {
        let worker = try await startWorker()
        let producer = try await worker.connect()
        _ = try await producer.openSession(options: Expect.options(.image), name: "stopping")
        let subscriber = try UnixSocket(path: worker.socketPath)
        try subscriber.send(.subscribe(callID: 7, name: "stopping"))
        guard case .subscribe(let subscribed)? = try subscriber.receive()?.kind else { return XCTFail("no SubscribeResponse") }

        worker.signal(SIGTERM)
        let ended = try subscriber.receive()
        XCTAssertEqual(ended?.callID, 7)
        XCTAssertEqual(ended?.sessionEvent.subscriptionID, subscribed.subscriptionID)
        XCTAssertEqual(ended?.sessionEvent.sessionEnded.reason, .workerStopping)
        XCTAssertNil(try subscriber.receive(), "then the worker closes the connection")
        let status = await worker.waitForExit(timeout: .seconds(10))
        XCTAssertEqual(status, 0)
        XCTAssertTrue(worker.log.contains("connections_cut_off=0"), "the subscriber drained instead of being cut off:\n\(worker.log)")
    }

    /// Reads answers until every call in `calls` is answered; returns what
    /// the producer heard about its frames, in order.
    private static func answers(on socket: UnixSocket, through calls: Set<Int>) throws -> [Heard] {
        var waiting = calls
        var heard: [Heard] = []
        while !waiting.isEmpty {
            guard let answer = try socket.receive() else { throw UnexpectedAnswer(description: "the worker hung up") }
            waiting.remove(Int(answer.callID))
            if case .error(let status) = answer.kind, status.optionalSessionID != nil {
                XCTAssertNotNil(status.optionalTimestampMs, "a frame's error carries its timestamp: \(status)")
            }
            if let item = Heard(answer: answer) { heard.append(item) }
        }
        return heard
    }
}
