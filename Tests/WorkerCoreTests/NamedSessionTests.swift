import FaceWorkerProtocol
import Foundation
import WorkerCore
import XCTest

/// Named sessions and their subscribers, in-process: another connection
/// follows a session by its name, gets each of its answers as an event, and
/// learns when it ends; names are unique and checked.
final class NamedSessionTests: XCTestCase {
    private var worker: InProcessWorker!

    override func setUp() {
        worker = InProcessWorker()
    }

    override func tearDown() async throws {
        await worker.stop()
    }

    private func subscribe(_ connection: inout InProcessConnection, to name: String) async throws -> Faceworker_V1_WorkerMessage {
        var request = Faceworker_V1_SubscribeRequest()
        request.name = name
        try await connection.send(.subscribe(request))
        return try await connection.receive()
    }

    func testASubscriberGetsEveryAnswerOfTheSessionItFollowsAndItsEnd() async throws {
        var producer = try await worker.connect()
        var follower = try await worker.connect()
        var options = Faceworker_V1_SessionOptions()
        options.runningMode = .video
        let session = try await producer.open(options, name: "door-camera")
        let subscribed = try await subscribe(&follower, to: "door-camera")
        guard case .subscribe(let subscription) = subscribed.kind else { return XCTFail("\(subscribed)") }
        XCTAssertEqual(subscription.sessionID, session)
        XCTAssertEqual(subscription.options.runningMode, .video, "the subscriber learns the session's options")

        for timestamp: Int64 in [5, 6] {
            try await producer.sendFrame(to: session, timestampMs: timestamp)
            guard case .frameResult = try await producer.receive().kind else { return XCTFail("the producer's answer") }
            let event = try await follower.receive()
            guard case .sessionEvent(let followed) = event.kind, case .frameResult(let result)? = followed.event else {
                return XCTFail("\(event)")
            }
            XCTAssertEqual(followed.subscriptionID, subscription.subscriptionID)
            XCTAssertEqual(result.timestampMs, timestamp)
        }

        var close = Faceworker_V1_CloseSessionRequest()
        close.sessionID = session
        try await producer.send(.closeSession(close))
        guard case .closeSession = try await producer.receive().kind else { return XCTFail("the close is answered") }
        var ended: Faceworker_V1_WorkerMessage
        repeat { ended = try await follower.receive() } while ended.callID != subscribed.callID
        guard case .sessionEvent(let last) = ended.kind, case .sessionEnded? = last.event else { return XCTFail("\(ended)") }
    }

    func testANameIsUniqueAmongOpenSessionsAndAnUnknownOneIsNotFound() async throws {
        var first = try await worker.connect()
        var second = try await worker.connect()
        _ = try await first.open(Faceworker_V1_SessionOptions(), name: "lobby")
        let taken = try await second.refusedOpen(Faceworker_V1_SessionOptions(), name: "lobby")
        XCTAssertEqual(taken.code, .alreadyExists)
        XCTAssertTrue(taken.message.contains("lobby"), taken.message)

        let unknown = try await subscribe(&second, to: "nowhere")
        guard case .error(let status) = unknown.kind else { return XCTFail("\(unknown)") }
        XCTAssertEqual(status.code, .notFound)
        XCTAssertTrue(status.message.contains("nowhere"), status.message)
    }

    func testANameThatIsNotAllowedIsRefusedSayingWhatIs() async throws {
        var connection = try await worker.connect()
        let status = try await connection.refusedOpen(Faceworker_V1_SessionOptions(), name: String(repeating: "x", count: 1000))
        XCTAssertEqual(status.code, .invalidArgument)
        XCTAssertFalse(status.message.isEmpty)
        _ = try await connection.open(Faceworker_V1_SessionOptions(), name: "ok-name")
    }
}
