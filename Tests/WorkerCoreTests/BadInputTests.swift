import FaceWorkerProtocol
import Foundation
import WorkerCore
import WorkerCoreTesting
import XCTest

/// Bad input in-process, on a fake pipeline: each gets a clear error, and
/// harms nothing else: afterwards a session on the same connection and one on
/// another connection are still answered.
final class BadInputTests: XCTestCase {
    private var worker: InProcessWorker!
    private var connection: InProcessConnection!
    private var other: InProcessConnection!
    private var session: UInt64 = 0
    private var otherSession: UInt64 = 0
    private var timestamp: Int64 = 0

    private func start(_ limits: WorkerLimits = WorkerLimits()) async throws {
        try await openBystanders(InProcessWorker(limits: limits))
        try await stillServed()
    }

    /// The two connections and their sessions, with no frame sent yet.
    private func openBystanders(_ worker: InProcessWorker) async throws {
        self.worker = worker
        connection = try await worker.connect()
        other = try await worker.connect()
        session = try await connection.open(Faceworker_V1_SessionOptions())
        otherSession = try await other.open(Faceworker_V1_SessionOptions())
    }

    override func tearDown() async throws {
        await worker?.stop()
    }

    /// Both bystander sessions are still answered.
    private func stillServed(file: StaticString = #filePath, line: UInt = #line) async throws {
        timestamp += 1
        let result = try await connection.result(of: session, timestampMs: timestamp)
        XCTAssertEqual(result.timestampMs, timestamp, file: file, line: line)
        let otherResult = try await other.result(of: otherSession, timestampMs: timestamp)
        XCTAssertEqual(otherResult.timestampMs, timestamp, file: file, line: line)
    }

    private func options(_ mode: Faceworker_V1_RunningMode, _ change: (inout Faceworker_V1_SessionOptions) -> Void = { _ in })
        -> Faceworker_V1_SessionOptions {
        var options = Faceworker_V1_SessionOptions()
        options.runningMode = mode
        change(&options)
        return options
    }

    func testInvalidProtobufIsRefusedAndTheConnectionStaysUsable() async throws {
        try await start()
        // Field 1 with wire type 7, which does not exist.
        try await connection.sendRaw(MessageHeader(length: 3).bytes + [0x0F, 0xFF, 0xFF])
        let answer = try await connection.receive()
        XCTAssertEqual(answer.callID, 0)
        XCTAssertEqual(answer.error.code, .invalidArgument)
        XCTAssertTrue(answer.error.message.contains("ClientMessage"), answer.error.message)
        try await stillServed()
    }

    func testAnUnknownMessageKindIsUnimplemented() async throws {
        try await start()
        // call_id 5, then field 99 (a kind from a later API version) = 1.
        try await connection.sendRaw(MessageHeader(length: 5).bytes + [0x08, 0x05, 0x98, 0x06, 0x01])
        let answer = try await connection.receive()
        XCTAssertEqual(answer.callID, 5)
        XCTAssertEqual(answer.error.code, .unimplemented)
        try await stillServed()
    }

    func testFramesForUnknownClosedOrStrangersSessionsAreNotFound() async throws {
        try await start()
        try await connection.sendFrame(to: 999_999, timestampMs: 1)
        let unknown = try await connection.refusal()
        XCTAssertEqual(unknown.code, .notFound)
        XCTAssertEqual(unknown.sessionID, 999_999)

        try await connection.sendFrame(to: otherSession, timestampMs: 1)
        let stranger = try await connection.refusal().code
        XCTAssertEqual(stranger, .notFound, "another connection's session is not visible")

        let closed = try await connection.open(options(.video))
        var close = Faceworker_V1_CloseSessionRequest()
        close.sessionID = closed
        try await connection.send(.closeSession(close))
        guard case .closeSession = try await connection.receive().kind else { return XCTFail("the close is answered") }
        try await connection.sendFrame(to: closed, timestampMs: 1)
        let closedFrame = try await connection.refusal().code
        XCTAssertEqual(closedFrame, .notFound)
        try await connection.send(.closeSession(close))
        let closedTwice = try await connection.refusal().code
        XCTAssertEqual(closedTwice, .notFound, "closing twice")

        var fresh = try await worker.connect()
        try await fresh.sendFrame(to: 0, timestampMs: 1)
        let beforeOpen = try await fresh.refusal()
        XCTAssertEqual(beforeOpen.code, .notFound)
        XCTAssertTrue(beforeOpen.message.contains("OpenSession"), beforeOpen.message)
        try await stillServed()
    }

    func testANonIncreasingTimestampInLiveStreamModeIsRefusedAndTheSessionGoesOn() async throws {
        try await start()
        let live = try await connection.open(options(.liveStream))
        let first = try await connection.result(of: live, timestampMs: 100).timestampMs
        XCTAssertEqual(first, 100)
        try await connection.sendFrame(to: live, timestampMs: 100)
        let refused = try await connection.refusal()
        XCTAssertEqual(refused.code, .invalidArgument)
        XCTAssertEqual(refused.timestampMs, 100)
        let later = try await connection.result(of: live, timestampMs: 200).timestampMs
        XCTAssertEqual(later, 200)
        try await stillServed()
    }

    func testRawFramesTooLargeShortOrEmptyAreRefusedSayingWhy() async throws {
        try await start()
        try await connection.sendFrame(to: session, timestampMs: 1, width: 10_000, height: 10_000, bytes: 16)
        let large = try await connection.refusal()
        XCTAssertEqual(large.code, .resourceExhausted)
        XCTAssertTrue(large.message.contains("--max-pixels"), large.message)

        var short = Faceworker_V1_Frame()
        short.raw.format = .rgb
        short.raw.width = 100
        short.raw.height = 100
        short.raw.rowStride = 320
        short.raw.data = Data(count: 100 * 320 - 1)
        try await connection.send(short, to: session)
        let shortRefusal = try await connection.refusal()
        XCTAssertEqual(shortRefusal.code, .invalidArgument)
        XCTAssertTrue(shortRefusal.message.contains("32000"), "names the expected size: \(shortRefusal.message)")

        for (width, height) in [(0, 10), (10, 0)] {
            var empty = Faceworker_V1_Frame()
            empty.raw.format = .gray8
            empty.raw.width = UInt32(width)
            empty.raw.height = UInt32(height)
            try await connection.send(empty, to: session)
            let refusal = try await connection.refusal().code
            XCTAssertEqual(refusal, .invalidArgument, "raw \(width)x\(height)")
        }
        try await connection.send(Faceworker_V1_Frame(), to: session)
        let imageless = try await connection.refusal().code
        XCTAssertEqual(imageless, .invalidArgument, "a frame without an image")
        try await stillServed()
    }

    func testOptionValuesOutOfRangeAreInvalidAndNamedAndOpenNothing() async throws {
        try await start()
        let cases: [(String, Faceworker_V1_SessionOptions)] = [
            ("min_detection_confidence", options(.image) { $0.minDetectionConfidence = 1.5 }),
            ("min_face_size", options(.image) { $0.minFaceSize = -0.1 }),
            ("min_tracking_confidence", options(.video) { $0.minTrackingConfidence = .nan }),
            ("num_faces", options(.image) { $0.numFaces = 0 }),
            ("max_missed_frames", options(.video) { $0.maxMissedFrames = 100_000 }),
            ("tracking_enabled", options(.image) { $0.trackingEnabled = true }),
            ("running_mode", options(.UNRECOGNIZED(9))),
        ]
        for (field, options) in cases {
            let refusal = try await connection.refusedOpen(options)
            XCTAssertEqual(refusal.code, .invalidArgument, field)
            XCTAssertTrue(refusal.message.contains(field), "\(field): \(refusal.message)")
        }
        try await connection.send(.getStats(Faceworker_V1_GetStatsRequest()))
        guard case .getStats(let stats) = try await connection.receive().kind else { return XCTFail("stats are answered") }
        XCTAssertEqual(stats.sessions, 2, "no refused session was opened")
        try await stillServed()
    }

    func testSessionsBeyondTheWorkersLimitAreRefused() async throws {
        var limits = WorkerLimits()
        limits.maxSessions = 3
        try await start(limits)
        _ = try await connection.open(options(.image))
        var third = try await worker.connect()
        let refusal = try await third.refusedOpen(options(.image))
        XCTAssertEqual(refusal.code, .resourceExhausted)
        XCTAssertTrue(refusal.message.contains("--max-sessions"), refusal.message)
        try await stillServed()
    }

    /// The frame running is held at the gate, so the one after it waits in
    /// the queue and the next finds it full, however fast frames run.
    func testAFrameBeyondTheSessionsQueueLimitIsRefusedAndTheFramesBeforeItAnswered() async throws {
        var limits = WorkerLimits()
        limits.maxQueuedFrames = 1
        let gate = FrameGate()
        // The bystanders are served once the gate opens: before, their frames would wait at it too.
        try await openBystanders(InProcessWorker(limits: limits, analyzer: FakeAnalyzer(threads: 1, gate: gate)))
        let video = try await connection.open(options(.video))
        let running = try await connection.sendFrame(to: video, timestampMs: 1)
        await gate.waitForArrivals(1)
        let waiting = try await connection.sendFrame(to: video, timestampMs: 2)
        let beyond = try await connection.sendFrame(to: video, timestampMs: 3)
        gate.open()
        let answers = Dictionary(uniqueKeysWithValues: try await connection.receive(answering: [running, waiting, beyond]).map { ($0.callID, $0) })
        XCTAssertEqual(answers[beyond]?.error.code, .resourceExhausted)
        XCTAssertTrue(answers[beyond]?.error.message.contains("--max-queued-frames") == true, "\(String(describing: answers[beyond]))")
        XCTAssertEqual(answers[running]?.frameResult.timestampMs, 1)
        XCTAssertEqual(answers[waiting]?.frameResult.timestampMs, 2)
        try await stillServed()
    }

    func testALengthPrefixAboveTheMaximumIsAnsweredThenTheConnectionCloses() async throws {
        var limits = WorkerLimits()
        limits.maxMessageBytes = 1_000_000
        try await start(limits)
        let doomed = try await worker.connect()
        try await doomed.sendRaw([0x00, 0x7F, 0xFF, 0xFF, 0xFF])
        let answer = try await doomed.receive()
        XCTAssertEqual(answer.callID, 0)
        XCTAssertEqual(answer.error.code, .resourceExhausted)
        XCTAssertTrue(answer.error.message.contains("1000000"), answer.error.message)
        try await doomed.channel.closeFuture.get()
        try await stillServed()
    }

    func testACompressedMessageIsUnimplementedThenTheConnectionCloses() async throws {
        try await start()
        let doomed = try await worker.connect()
        try await doomed.sendRaw([0x01, 0x00, 0x00, 0x00, 0x02, 0x08, 0x01])
        let compressed = try await doomed.receive().error.code
        XCTAssertEqual(compressed, .unimplemented)
        try await doomed.channel.closeFuture.get()
        try await stillServed()
    }
}
