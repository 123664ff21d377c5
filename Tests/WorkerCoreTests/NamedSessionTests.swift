import FaceWorkerProtocol
import Foundation
import WorkerCore
import WorkerCoreTesting
import XCTest

/// Named sessions and their subscribers, in-process: another connection
/// follows a session by its name, gets each of its answers as an event, in
/// the order its producer gets them, and learns when and why it ends; names
/// are unique and checked, and subscriptions are limited.
final class NamedSessionTests: XCTestCase {
    private var worker: InProcessWorker!

    override func tearDown() async throws {
        await worker?.stop()
    }

    private func start(_ limits: WorkerLimits = WorkerLimits(), analyzer: FakeAnalyzer = FakeAnalyzer()) -> InProcessWorker {
        worker = InProcessWorker(limits: limits, analyzer: analyzer)
        return worker
    }

    private static let image = Faceworker_V1_SessionOptions.with { $0.runningMode = .image }

    func testASubscriberGetsEveryAnswerOfTheSessionItFollowsAndItsEnd() async throws {
        let worker = start()
        var producer = try await worker.connect()
        var follower = try await worker.connect()
        let session = try await producer.open(.with { $0.runningMode = .video }, name: "door-camera")
        let subscribeCall = try await follower.sendSubscribe(to: "door-camera")
        let subscribed = try await follower.receive()
        guard case .subscribe(let subscription) = subscribed.kind else { return XCTFail("\(subscribed)") }
        XCTAssertEqual(subscribed.callID, subscribeCall)
        XCTAssertEqual(subscription.sessionID, session)
        XCTAssertEqual(subscription.options.runningMode, .video, "the subscriber learns the session's options")

        for timestamp: Int64 in [5, 6] {
            try await producer.sendFrame(to: session, timestampMs: timestamp)
            guard case .frameResult = try await producer.receive().kind else { return XCTFail("the producer's answer") }
            let event = try await follower.receive()
            guard case .sessionEvent(let followed) = event.kind, case .frameResult(let result)? = followed.event else {
                return XCTFail("\(event)")
            }
            XCTAssertEqual(event.callID, subscribeCall, "the events answer the Subscribe call")
            XCTAssertEqual(followed.subscriptionID, subscription.subscriptionID)
            XCTAssertEqual(result.timestampMs, timestamp)
        }

        try await producer.sendClose(session)
        guard case .closeSession = try await producer.receive().kind else { return XCTFail("the close is answered") }
        let ended = try await follower.eventsUntilEnded()
        XCTAssertEqual(ended.count, 1, "nothing but the end after the last answer: \(ended)")
    }

    func testANameIsEchoedUniqueAndFreeAgainOnceItsSessionClosesOrItsConnectionGoes() async throws {
        let worker = start()
        var first = try await worker.connect()
        var other = try await worker.connect()
        let named = try await first.opened(Self.image, name: "front door")
        XCTAssertEqual(named.name, "front door", "OpenSessionResponse.name echoes it")
        let unnamed = try await first.opened(Self.image)
        XCTAssertEqual(unnamed.name, "", "a session opened without a name is private")

        let taken = try await other.refusedOpen(Self.image, name: "front door")
        XCTAssertEqual(taken.code, .alreadyExists)
        XCTAssertTrue(taken.message.contains("\"front door\""), taken.message)
        let served = try await first.result(of: named.sessionID, timestampMs: 1)
        XCTAssertEqual(served.timestampMs, 1, "the session holding the name is still served")

        try await first.sendClose(named.sessionID)
        guard case .closeSession = try await first.receive().kind else { return XCTFail("the close is answered") }
        let reopened = try await other.opened(Self.image, name: "front door")
        XCTAssertEqual(reopened.name, "front door", "a closed session's name is free again")

        try await other.channel.close()
        let again = try await first.opened(Self.image, name: "front door")
        XCTAssertEqual(again.name, "front door", "the name is free once its connection has gone")
    }

    func testANameThatIsEmptyTooLongOrHoldsAControlCharacterIsRefused() async throws {
        let worker = start()
        var connection = try await worker.connect()
        let longest = String(repeating: "é", count: 64)
        let longestName = try await connection.opened(Self.image, name: longest).name
        XCTAssertEqual(longestName, longest, "128 bytes of UTF-8 is allowed")
        for (name, says) in [
            ("", "empty"), (longest + "a", "129 bytes"), ("line\nbreak", "U+000A"), ("bell\u{7}", "U+0007"),
            ("delete\u{7F}", "U+007F"), ("next\u{85}line", "U+0085"),
        ] {
            let refused = try await connection.refusedOpen(Self.image, name: name)
            XCTAssertEqual(refused.code, .invalidArgument, name.debugDescription)
            XCTAssertTrue(refused.message.contains(says), refused.message)
            XCTAssertTrue(refused.message.contains("1 to 128 bytes of UTF-8 without control characters"), "the rule is named: \(refused.message)")
        }
        let sessionsLeft = try await connection.stats().sessions
        XCTAssertEqual(sessionsLeft, 1, "no refused name left a session behind")
    }

    func testSubscribeRefusesAnEmptyOrUnknownNameAndTheConnectionsOwnSession() async throws {
        let worker = start()
        var producer = try await worker.connect()
        let session = try await producer.open(Self.image, name: "mine")

        let own = try await producer.refusedSubscribe(to: "mine")
        XCTAssertEqual(own.code, .failedPrecondition)
        XCTAssertEqual(own.optionalSessionID, .sessionID(session), "the refusal names the session")
        let empty = try await producer.refusedSubscribe(to: "")
        XCTAssertEqual(empty.code, .invalidArgument)
        let unknown = try await producer.refusedSubscribe(to: "nobody")
        XCTAssertEqual(unknown.code, .notFound)
        XCTAssertTrue(unknown.message.contains("\"nobody\""), unknown.message)

        let subscriptions = try await producer.stats().subscriptions
        XCTAssertEqual(subscriptions, 0)
        let served = try await producer.result(of: session, timestampMs: 1)
        XCTAssertEqual(served.timestampMs, 1)
    }

    func testTheSubscriberLimitsAreEnforcedAndFreedAgain() async throws {
        var limits = WorkerLimits()
        limits.maxSubscribersPerSession = 2
        limits.maxSubscriptionsPerConnection = 2
        let worker = start(limits)
        var producer = try await worker.connect()
        for name in ["a", "b", "c"] { _ = try await producer.open(Self.image, name: name) }
        var first = try await worker.connect()
        var second = try await worker.connect()
        var third = try await worker.connect()

        _ = try await first.subscribe(to: "a")
        let held = try await second.subscribe(to: "a")
        let crowded = try await third.refusedSubscribe(to: "a")
        XCTAssertEqual(crowded.code, .resourceExhausted)
        XCTAssertTrue(crowded.message.contains("--max-subscribers-per-session"), crowded.message)

        _ = try await first.subscribe(to: "b")
        let busy = try await first.refusedSubscribe(to: "c")
        XCTAssertEqual(busy.code, .resourceExhausted)
        XCTAssertTrue(busy.message.contains("--max-subscriptions-per-connection"), busy.message)
        let open = try await producer.stats().subscriptions
        XCTAssertEqual(open, 3)

        try await second.send(.unsubscribe(.with { $0.subscriptionID = held.subscriptionID }))
        _ = try await second.eventsUntilEnded()
        guard case .unsubscribe = try await second.receive().kind else { return XCTFail("the unsubscribe is answered") }
        _ = try await third.subscribe(to: "a")
        let openAfter = try await producer.stats().subscriptions
        XCTAssertEqual(openAfter, 3, "an ended subscription frees its place")
    }

    func testAZeroSubscriberLimitIsRefusedAtStartNamingItsFlag() {
        for (keyPath, flag) in [(\WorkerLimits.maxSubscribersPerSession, "--max-subscribers-per-session"),
                                (\.maxSubscriptionsPerConnection, "--max-subscriptions-per-connection"), (\.subscriberQueue, "--subscriber-queue")] {
            var limits = WorkerLimits()
            limits[keyPath: keyPath] = 0
            XCTAssertThrowsError(try limits.validate()) { error in
                XCTAssertTrue("\(error)".contains(flag), "\(error)")
            }
        }
    }

    /// A live stream whose frames wait (one inference thread, its first frame
    /// held) so that some are replaced, a stale timestamp, a reset and a
    /// close: the producer and three subscribers hear the same things in the
    /// same order.
    func testTheProducerAndEverySubscriberHearTheSameSequence() async throws {
        let gate = FrameGate()
        let worker = start(analyzer: FakeAnalyzer(threads: 1, gate: gate))
        var producer = try await worker.connect()
        let opened = try await producer.opened(.with { $0.runningMode = .liveStream; $0.outputFaceMesh = true }, name: "live")
        XCTAssertEqual(opened.name, "live")
        let session = opened.sessionID

        var subscribers: [(connection: InProcessConnection, subscription: UInt64)] = []
        for _ in 0..<3 {
            var connection = try await worker.connect()
            let subscription = try await connection.subscribe(to: "live")
            XCTAssertEqual(subscription.sessionID, session)
            XCTAssertEqual(subscription.options, opened.options)
            XCTAssertEqual(subscription.queueLimit, 64, "the default --subscriber-queue")
            subscribers.append((connection, subscription.subscriptionID))
        }

        var calls: Set<UInt64> = [try await producer.sendFrame(to: session, timestampMs: 1)]
        await gate.waitForArrivals(1)
        for timestamp: Int64 in [2, 3, 4, 5, 3] {
            calls.insert(try await producer.sendFrame(to: session, timestampMs: timestamp))
        }
        gate.open()
        var answers = try await producer.receive(answering: calls)
        answers += try await producer.receive(answering: [try await producer.send(.resetSession(.with { $0.sessionID = session }))])
        answers += try await producer.receive(answering: [try await producer.sendFrame(to: session, timestampMs: 1)])
        try await producer.sendClose(session)
        guard case .closeSession = try await producer.receive().kind else { return XCTFail("the close is answered") }

        for case .error(let status) in answers.map(\.kind) {
            XCTAssertEqual(status.optionalTimestampMs, .timestampMs(3), "a frame's error carries its timestamp: \(status)")
        }
        let heard = answers.compactMap(Heard.init(answer:))
        XCTAssertEqual(heard, [.dropped(2, .replaced), .dropped(3, .replaced), .dropped(4, .replaced), .failed(3, .invalidArgument),
                               .result(1), .result(5), .reset, .result(1)],
                       "the waiting frame is replaced by each newer one, the stale one refused, then the held frame and the last one run")
        for (connection, subscription) in subscribers {
            let events = try await connection.eventsUntilEnded()
            XCTAssertEqual(events.compactMap(Heard.init(event:)), heard, "a subscriber hears what the producer hears, in order")
            XCTAssertTrue(events.allSatisfy { $0.subscriptionID == subscription })
            XCTAssertEqual(events.last?.sessionEnded.reason, .sessionClosed, "the stream ends with SESSION_CLOSED")
        }
        let subscriptionsLeft = try await producer.stats().subscriptions
        XCTAssertEqual(subscriptionsLeft, 0, "the ended subscriptions are gone")
    }

    func testClosingASessionDropsItsWaitingFramesForSubscribersTooThenEndsTheirStream() async throws {
        let gate = FrameGate()
        let worker = start(analyzer: FakeAnalyzer(threads: 1, gate: gate))
        var producer = try await worker.connect()
        let session = try await producer.open(.with { $0.runningMode = .video; $0.outputFaceMesh = true }, name: "video")
        var subscriber = try await worker.connect()
        _ = try await subscriber.subscribe(to: "video")

        var calls: Set<UInt64> = [try await producer.sendFrame(to: session, timestampMs: 0)]
        await gate.waitForArrivals(1)
        for timestamp: Int64 in 1..<6 {
            calls.insert(try await producer.sendFrame(to: session, timestampMs: timestamp))
        }
        calls.insert(try await producer.sendClose(session))
        gate.open()
        let answers = try await producer.receive(answering: calls)
        guard case .closeSession? = answers.last?.kind else { return XCTFail("the close is answered last: \(answers)") }
        let heard = answers.compactMap(Heard.init(answer:))
        XCTAssertEqual(heard, (1..<6).map { .dropped($0, .sessionClosed) } + [.result(0)],
                       "the close drops the waiting frames at once; the running one is answered")

        let events = try await subscriber.eventsUntilEnded()
        XCTAssertEqual(events.compactMap(Heard.init(event:)), heard)
        XCTAssertEqual(events.last?.sessionEnded.reason, .sessionClosed, "SESSION_CLOSED comes last")
    }

    func testTheProducersConnectionClosingEndsTheStreamWithProducerGone() async throws {
        let worker = start()
        var producer = try await worker.connect()
        let session = try await producer.open(Self.image, name: "leaving")
        var subscriber = try await worker.connect()
        _ = try await subscriber.subscribe(to: "leaving")
        _ = try await producer.result(of: session, timestampMs: 5)

        try await producer.channel.close()
        let events = try await subscriber.eventsUntilEnded()
        XCTAssertEqual(events.compactMap(Heard.init(event:)), [.result(5)])
        XCTAssertEqual(events.last?.sessionEnded.reason, .producerGone, "PRODUCER_GONE comes last")
        let subscriptionsLeft = try await subscriber.stats().subscriptions
        XCTAssertEqual(subscriptionsLeft, 0)
    }

    func testUnsubscribingEndsTheStreamBeforeTheAnswerAndOnlyOnce() async throws {
        let worker = start()
        var producer = try await worker.connect()
        let session = try await producer.open(Self.image, name: "watched")
        var subscriber = try await worker.connect()
        let subscription = try await subscriber.subscribe(to: "watched")
        _ = try await producer.result(of: session, timestampMs: 9)

        let unsubscribe = Faceworker_V1_ClientMessage.OneOf_Kind.unsubscribe(.with { $0.subscriptionID = subscription.subscriptionID })
        let call = try await subscriber.send(unsubscribe)
        let events = try await subscriber.eventsUntilEnded()
        XCTAssertEqual(events.compactMap(Heard.init(event:)), [.result(9)], "\(events)")
        XCTAssertEqual(events.last?.sessionEnded.reason, .unsubscribed, "UNSUBSCRIBED comes last")
        let answer = try await subscriber.receive()
        guard case .unsubscribe(let unsubscribed) = answer.kind else { return XCTFail("SessionEnded comes before the answer: \(answer)") }
        XCTAssertEqual(answer.callID, call)
        XCTAssertEqual(unsubscribed.subscriptionID, subscription.subscriptionID)

        try await subscriber.send(unsubscribe)
        let again = try await subscriber.refusal()
        XCTAssertEqual(again.code, .notFound, "an ended subscription is gone")
        let subscriptionsLeft = try await subscriber.stats().subscriptions
        XCTAssertEqual(subscriptionsLeft, 0)
        let served = try await producer.result(of: session, timestampMs: 10)
        XCTAssertEqual(served.timestampMs, 10)
        XCTAssertEqual(worker.log.lines("subscribed").map { $0.metadata["name"] }, ["watched"])
        let ended = worker.log.lines("subscription ended")
        XCTAssertEqual(ended.map { $0.metadata["name"] }, ["watched"])
        XCTAssertEqual(ended.map { $0.metadata["reason"] }, ["unsubscribed"])
    }
}
