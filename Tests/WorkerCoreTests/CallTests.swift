import FaceWorkerProtocol
import Foundation
import WorkerCore
import XCTest

/// A client's calls through the lean socket's handler into the core and its
/// inference threads, on a fake pipeline: sessions, frames and their answers,
/// the running mode's timestamp rule, refusals and limits.
final class CallTests: XCTestCase {
    private var worker: InProcessWorker!

    override func setUp() {
        worker = InProcessWorker(limits: { var limits = WorkerLimits(); limits.maxSessionsPerConnection = 2; return limits }())
    }

    override func tearDown() async throws {
        await worker.stop()
    }

    private func options(_ mode: Faceworker_V1_RunningMode) -> Faceworker_V1_SessionOptions {
        var options = Faceworker_V1_SessionOptions()
        options.runningMode = mode
        return options
    }

    func testAFrameIsAnsweredWithItsResultTaggedWithItsTimestamp() async throws {
        var connection = try await worker.connect()
        let session = try await connection.open(options(.video))
        for timestamp: Int64 in [10, 20, 30] {
            let call = try await connection.sendFrame(to: session, timestampMs: timestamp, width: 6, height: 4)
            let answer = try await connection.receive()
            XCTAssertEqual(answer.callID, call)
            guard case .frameResult(let result) = answer.kind else { return XCTFail("\(answer)") }
            XCTAssertEqual(result.sessionID, session)
            XCTAssertEqual(result.timestampMs, timestamp)
            XCTAssertEqual([result.imageWidth, result.imageHeight], [6, 4])
            XCTAssertEqual(result.faces.map(\.score), [Float(timestamp)], "the pipeline's own face for this frame")
        }
    }

    func testAVideoFrameWhoseTimestampDoesNotIncreaseIsRefusedAndTheSessionGoesOn() async throws {
        var connection = try await worker.connect()
        let session = try await connection.open(options(.video))
        try await connection.sendFrame(to: session, timestampMs: 100)
        guard case .frameResult = try await connection.receive().kind else { return XCTFail("the first frame is answered") }
        try await connection.sendFrame(to: session, timestampMs: 100)
        let refusal = try await connection.receive()
        guard case .error(let status) = refusal.kind else { return XCTFail("\(refusal)") }
        XCTAssertEqual(status.code, .invalidArgument)
        XCTAssertTrue(status.message.contains("must increase"), status.message)
        XCTAssertEqual(status.timestampMs, 100)
        try await connection.sendFrame(to: session, timestampMs: 101)
        guard case .frameResult(let result) = try await connection.receive().kind else { return XCTFail("a later frame is answered") }
        XCTAssertEqual(result.timestampMs, 101)
    }

    func testOptionsOutOfRangeAreRefusedByName() async throws {
        var connection = try await worker.connect()
        var bad = options(.image)
        bad.numFaces = 0
        let status = try await connection.refusedOpen(bad)
        XCTAssertEqual(status.code, .invalidArgument)
        XCTAssertTrue(status.message.contains("num_faces"), status.message)
        _ = try await connection.open(options(.image))
    }

    func testAConnectionGetsNoMoreSessionsThanItsLimitAndAClosedOneFreesItsPlace() async throws {
        var connection = try await worker.connect()
        let first = try await connection.open(options(.image))
        _ = try await connection.open(options(.image))
        let status = try await connection.refusedOpen(options(.image))
        XCTAssertEqual(status.code, .resourceExhausted)
        XCTAssertTrue(status.message.contains("--max-sessions-per-connection"), status.message)

        var close = Faceworker_V1_CloseSessionRequest()
        close.sessionID = first
        try await connection.send(.closeSession(close))
        guard case .closeSession = try await connection.receive().kind else { return XCTFail("the close is answered") }
        _ = try await connection.open(options(.image))
    }

    func testAFrameForASessionOfAnotherConnectionIsRefused() async throws {
        var owner = try await worker.connect()
        var stranger = try await worker.connect()
        let session = try await owner.open(options(.image))
        try await stranger.sendFrame(to: session, timestampMs: 1)
        guard case .error(let status) = try await stranger.receive().kind else { return XCTFail("a stranger's frame is refused") }
        XCTAssertEqual(status.code, .notFound)
        try await owner.sendFrame(to: session, timestampMs: 1)
        guard case .frameResult = try await owner.receive().kind else { return XCTFail("the owner's session is untouched") }
    }

    func testARawFrameWhoseBytesDoNotFitItsSizeIsRefusedSayingWhatFits() async throws {
        var connection = try await worker.connect()
        let session = try await connection.open(options(.image))
        try await connection.sendFrame(to: session, timestampMs: 1, width: 4, height: 2, bytes: 5)
        guard case .error(let status) = try await connection.receive().kind else { return XCTFail("a short frame is refused") }
        XCTAssertEqual(status.code, .invalidArgument)
        XCTAssertTrue(status.message.contains("24"), "names the bytes a 4x2 RGB frame needs: \(status.message)")
    }

    func testPingEchoesAndStatsCountTheFramesAnswered() async throws {
        var connection = try await worker.connect()
        let session = try await connection.open(options(.image))
        for timestamp: Int64 in 1...3 {
            try await connection.sendFrame(to: session, timestampMs: timestamp)
            guard case .frameResult = try await connection.receive().kind else { return XCTFail("frame \(timestamp)") }
        }
        var ping = Faceworker_V1_PingRequest()
        ping.payload = Data([1, 2, 3])
        try await connection.send(.ping(ping))
        guard case .ping(let pong) = try await connection.receive().kind else { return XCTFail("the ping is answered") }
        XCTAssertEqual(pong.payload, Data([1, 2, 3]))
        try await connection.send(.getStats(Faceworker_V1_GetStatsRequest()))
        guard case .getStats(let stats) = try await connection.receive().kind else { return XCTFail("stats are answered") }
        XCTAssertEqual(stats.framesProcessed, 3)
        XCTAssertEqual(stats.sessions, 1)
        XCTAssertEqual(stats.connections, 1)
        XCTAssertEqual(stats.inferenceThreads, 2)
    }
}
