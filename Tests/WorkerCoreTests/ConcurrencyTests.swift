import FaceWorkerProtocol
import Foundation
import WorkerCore
import WorkerCoreTesting
import XCTest

/// Several clients with several sessions each, all at once, each getting its
/// own answers, and sessions taking turns fairly on the inference threads.
final class ConcurrencyTests: XCTestCase {
    private var worker: InProcessWorker!

    override func tearDown() async throws {
        await worker?.stop()
    }

    /// Four connections, each with an image and a video session whose frames
    /// are sent interleaved, on two inference threads. A frame's width names
    /// its session (the fake pipeline answers with the frame's size), so an
    /// answer given to the wrong session, or out of its order, shows.
    func testSeveralClientsAndSessionsAtOnce() async throws {
        worker = InProcessWorker()
        let rounds = 3, framesPerRound = 4
        try await withThrowingTaskGroup(of: Void.self) { group in
            for client in 0..<4 {
                let connection = try await worker.connect()
                group.addTask {
                    var connection = connection
                    let image = try await connection.open(.with { $0.runningMode = .image })
                    let video = try await connection.open(.with { $0.runningMode = .video; $0.trackingEnabled = true })
                    let widths: [UInt64: UInt32] = [image: UInt32(10 + 2 * client), video: UInt32(11 + 2 * client)]
                    var timestamps: [UInt64: [Int64]] = [:]
                    for round in 0..<rounds {
                        var calls: Set<UInt64> = []
                        for index in 0..<framesPerRound {
                            let timestamp = Int64(round * framesPerRound + index) * 40
                            for session in [image, video] {
                                calls.insert(try await connection.sendFrame(to: session, timestampMs: timestamp, width: widths[session]!))
                            }
                        }
                        for answer in try await connection.receive(answering: calls) {
                            guard case .frameResult(let result) = answer.kind else { return XCTFail("\(answer)") }
                            XCTAssertEqual(result.imageWidth, widths[result.sessionID], "each session gets its own frames' answers")
                            timestamps[result.sessionID, default: []].append(result.timestampMs)
                        }
                    }
                    let sent = (0..<Int64(rounds * framesPerRound)).map { $0 * 40 }
                    XCTAssertEqual(timestamps[image], sent, "every frame answered once, in order")
                    XCTAssertEqual(timestamps[video], sent, "every frame answered once, in order")
                    for session in [image, video] {
                        try await connection.sendClose(session)
                        guard case .closeSession = try await connection.receive().kind else { return XCTFail("the close is answered") }
                    }
                }
            }
            try await group.waitForAll()
        }
        var client = try await worker.connect()
        let stats = try await client.stats()
        XCTAssertEqual(stats.framesProcessed, UInt64(4 * 2 * rounds * framesPerRound))
        XCTAssertEqual(stats.sessions, 0)
    }

    func testABusySessionDoesNotStarveAQuietOne() async throws {
        let gate = FrameGate()
        worker = InProcessWorker(analyzer: FakeAnalyzer(threads: 1, gate: gate))
        var connection = try await worker.connect()
        let busy = try await connection.open(.with { $0.runningMode = .video; $0.outputFaceMesh = true })
        let quiet = try await connection.open(.with { $0.runningMode = .image })
        var calls: Set<UInt64> = [try await connection.sendFrame(to: busy, timestampMs: 0)]
        await gate.waitForArrivals(1)
        for timestamp: Int64 in 1..<8 {
            calls.insert(try await connection.sendFrame(to: busy, timestampMs: timestamp))
        }
        let quietCall = try await connection.sendFrame(to: quiet, timestampMs: 0)
        gate.open()

        let order = try await connection.receive(answering: calls.union([quietCall])).map(\.callID)
        // Round robin: the quiet frame runs as soon as the busy session's
        // running frame is done, not after its seven waiting ones.
        XCTAssertEqual(order.firstIndex(of: quietCall), 1, "answer order \(order)")
    }

    func testCloseIsAnsweredAfterEveryEarlierFrameOfTheSession() async throws {
        let gate = FrameGate()
        worker = InProcessWorker(analyzer: FakeAnalyzer(threads: 1, gate: gate))
        var connection = try await worker.connect()
        let session = try await connection.open(.with { $0.runningMode = .video; $0.landmarkMode = .all })
        let running = try await connection.sendFrame(to: session, timestampMs: 0)
        await gate.waitForArrivals(1)
        var waiting: [UInt64] = []
        for timestamp: Int64 in 1...3 {
            waiting.append(try await connection.sendFrame(to: session, timestampMs: timestamp))
        }
        let close = try await connection.sendClose(session)
        gate.open()

        let answers = try await connection.receive(answering: [close])
        XCTAssertEqual(answers.map(\.callID), waiting + [running, close], "every frame is answered before the close")
        for answer in answers {
            switch answer.kind {
            case .frameResult: XCTAssertEqual(answer.callID, running, "only the running frame is processed")
            case .frameDropped(let dropped): XCTAssertEqual(dropped.reason, .sessionClosed)
            case .closeSession(let closed): XCTAssertEqual(closed.sessionID, session)
            default: XCTFail("unexpected answer \(answer)")
            }
        }
    }

    /// A refusal waiting behind frames keeps its error when the session
    /// closes: the client learns why its frame was refused, not that it was
    /// dropped.
    func testARefusedFrameWaitingItsTurnGetsItsErrorWhenTheSessionCloses() async throws {
        let gate = FrameGate()
        worker = InProcessWorker(analyzer: FakeAnalyzer(threads: 1, gate: gate))
        var connection = try await worker.connect()
        let session = try await connection.open(.with { $0.runningMode = .video; $0.outputFaceMesh = true })
        let running = try await connection.sendFrame(to: session, timestampMs: 10)
        await gate.waitForArrivals(1)
        var waiting: [UInt64] = []
        for timestamp: Int64 in [20, 30] {
            waiting.append(try await connection.sendFrame(to: session, timestampMs: timestamp))
        }
        let refused = try await connection.sendFrame(to: session, timestampMs: 20)
        let close = try await connection.sendClose(session)
        gate.open()

        let answers = Dictionary(uniqueKeysWithValues: try await connection.receive(answering: Set([running, refused, close] + waiting)).map { ($0.callID, $0) })
        guard case .error(let status)? = answers[refused]?.kind else { return XCTFail("the refusal, not a drop: \(String(describing: answers[refused]))") }
        XCTAssertEqual(status.code, .invalidArgument)
        XCTAssertTrue(status.message.contains("timestamp_ms must increase"), status.message)
        guard case .closeSession(let closed)? = answers[close]?.kind else { return XCTFail("the close is answered") }
        XCTAssertEqual(closed.sessionID, session)
        guard case .frameResult? = answers[running]?.kind else { return XCTFail("the running frame is processed") }
        for call in waiting {
            guard case .frameDropped(let dropped)? = answers[call]?.kind else { return XCTFail("call \(call) is dropped") }
            XCTAssertEqual(dropped.reason, .sessionClosed)
        }
    }
}
