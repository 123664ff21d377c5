import FaceWorkerClient
import FaceWorkerProtocol
import Foundation
import ImagingTesting
import XCTest

/// Every kind of bad input gets a clear error and harms nothing else: after
/// each, a session on the same connection and one on another connection still
/// get correct results.
final class BadInputTests: XCTestCase {
    /// A worker, two connections, and on each an image session known to work.
    private struct Bystanders {
        let worker: WorkerProcess
        let client: FaceWorkerClient
        let session: FaceWorkerSession
        let otherSession: FaceWorkerSession

        /// Both sessions still find the astronaut.
        func stillServed(file: StaticString = #filePath, line: UInt = #line) async throws {
            try await Expect.stillServes(session, file: file, line: line)
            try await Expect.stillServes(otherSession, file: file, line: line)
        }
    }

    private func bystanders(_ arguments: [String] = []) async throws -> Bystanders {
        let worker = try await startWorker(arguments)
        let client = try await worker.connect()
        let other = try await worker.connect()
        let bystanders = Bystanders(
            worker: worker, client: client,
            session: try await client.openSession(options: Expect.options(.image)),
            otherSession: try await other.openSession(options: Expect.options(.image)))
        try await bystanders.stillServed()
        return bystanders
    }

    private func process(_ client: FaceWorkerClient, session: UInt64, _ frame: Faceworker_V1_Frame) async -> FaceWorkerError? {
        var request = Faceworker_V1_ProcessFrameRequest()
        request.sessionID = session
        request.frame = frame
        return await Expect.failure { try await client.call(.processFrame(request)) }
    }

    private func processJPEG(_ session: FaceWorkerSession, _ bytes: [UInt8]) async -> FaceWorkerError? {
        await Expect.failure { try await session.process(jpeg: Data(bytes)) }
    }

    private func astronautBytes() throws -> [UInt8] {
        [UInt8](try TestPaths.jpeg("astronaut.jpg"))
    }

    func testInvalidProtobufIsRefusedAndTheConnectionStaysUsable() async throws {
        let setup = try await bystanders()
        let socket = try UnixSocket(path: setup.worker.socketPath)
        // Field 1 with wire type 7, which does not exist.
        try socket.send(TestFraming.frame(payload: [0x0F, 0xFF, 0xFF]))
        let answer = try XCTUnwrap(try socket.receive())
        XCTAssertEqual(answer.callID, 0)
        XCTAssertEqual(answer.error.code, .invalidArgument)
        XCTAssertTrue(answer.error.message.contains("ClientMessage"), answer.error.message)
        var ping = Faceworker_V1_ClientMessage()
        ping.callID = 9
        ping.ping = Faceworker_V1_PingRequest()
        try socket.send(ping)
        XCTAssertEqual(try socket.receive()?.callID, 9, "the connection still answers")
        try await setup.stillServed()
    }

    func testAnUnknownMessageKindIsUnimplemented() async throws {
        let setup = try await bystanders()
        let socket = try UnixSocket(path: setup.worker.socketPath)
        // call_id 5, then field 99 (a kind from a later API version) = 1.
        try socket.send(TestFraming.frame(payload: [0x08, 0x05, 0x98, 0x06, 0x01]))
        let answer = try XCTUnwrap(try socket.receive())
        XCTAssertEqual(answer.callID, 5)
        XCTAssertEqual(answer.error.code, .unimplemented)
        try await setup.stillServed()
    }

    func testAFrameForAnUnknownSessionIsNotFound() async throws {
        let setup = try await bystanders()
        let error = await process(setup.client, session: 999_999, .jpeg(try TestPaths.jpeg("astronaut.jpg")))
        XCTAssertEqual(error?.code, .notFound)
        XCTAssertEqual(error?.sessionID, 999_999)
        // Another connection's session is not visible either.
        let stranger = await process(setup.client, session: setup.otherSession.id, .jpeg(try TestPaths.jpeg("astronaut.jpg")))
        XCTAssertEqual(stranger?.code, .notFound)
        try await setup.stillServed()
    }

    func testAFrameForAClosedSessionIsNotFound() async throws {
        let setup = try await bystanders()
        let closed = try await setup.client.openSession(options: Expect.options(.video))
        try await closed.close()
        let error = await Expect.failure { try await closed.process(jpeg: try TestPaths.jpeg("astronaut.jpg"), timestampMs: 1) }
        XCTAssertEqual(error?.code, .notFound)
        let again = await Expect.failure { try await closed.close() }
        XCTAssertEqual(again?.code, .notFound, "closing twice")
        try await setup.stillServed()
    }

    func testAFrameBeforeOpenSessionIsNotFound() async throws {
        let setup = try await bystanders()
        let fresh = try await setup.worker.connect()
        let error = await process(fresh, session: 0, .jpeg(try TestPaths.jpeg("astronaut.jpg")))
        XCTAssertEqual(error?.code, .notFound)
        XCTAssertTrue(error?.message.contains("OpenSession") == true, error?.message ?? "")
        try await setup.stillServed()
    }

    func testANonIncreasingTimestampInVideoModeIsRefusedAndTheSessionGoesOn() async throws {
        let setup = try await bystanders()
        let video = try await setup.client.openSession(options: Expect.options(.video) { $0.trackingEnabled = true })
        let jpeg = try TestPaths.jpeg("astronaut.jpg")
        _ = try await video.process(jpeg: jpeg, timestampMs: 100)
        for stale in [Int64(100), 50] {
            let error = await Expect.failure { try await video.process(jpeg: jpeg, timestampMs: stale) }
            XCTAssertEqual(error?.code, .invalidArgument)
            XCTAssertTrue(error?.message.contains("timestamp") == true, error?.message ?? "")
        }
        let next = try await video.process(jpeg: jpeg, timestampMs: 133)
        XCTAssertEqual(next.faces.count, 1)
        try await setup.stillServed()
    }

    func testANonIncreasingTimestampInLiveStreamModeIsRefused() async throws {
        let setup = try await bystanders()
        let live = try await setup.client.openSession(options: Expect.options(.liveStream))
        let jpeg = try TestPaths.jpeg("astronaut.jpg")
        var events = live.results.makeAsyncIterator()
        try await live.send(jpeg: jpeg, timestampMs: 100)
        guard case .result(let first)? = await events.next() else { return XCTFail("the first frame is processed") }
        XCTAssertEqual(first.timestampMs, 100)
        try await live.send(jpeg: jpeg, timestampMs: 100)
        guard case .failed(let timestamp, let error)? = await events.next() else { return XCTFail("a repeated timestamp fails") }
        XCTAssertEqual(timestamp, 100)
        XCTAssertEqual(error.code, .invalidArgument)
        try await live.send(jpeg: jpeg, timestampMs: 200)
        guard case .result(let later)? = await events.next() else { return XCTFail("a later frame is processed") }
        XCTAssertEqual(later.faces.count, 1)
        try await setup.stillServed()
    }

    /// Damaged compressed data behind a sound header is decoded as libjpeg
    /// decodes it, with its warning, unless the session refuses damaged JPEGs;
    /// bytes that are no JPEG at all are refused either way.
    func testACorruptJPEGIsDecodedWithAWarningOrRefusedWhenTheSessionAsks() async throws {
        let setup = try await bystanders()
        var corrupt = try astronautBytes()
        // A restart marker in the middle of the compressed data.
        corrupt.replaceSubrange(corrupt.count / 2..<corrupt.count / 2 + 2, with: [0xFF, 0xD3])
        let decoded = try await setup.session.process(jpeg: Data(corrupt))
        XCTAssertEqual(decoded.warnings.count, 1)
        XCTAssertTrue(decoded.warnings.first?.contains("JPEG") == true, "\(decoded.warnings)")
        XCTAssertEqual(decoded.imageWidth, 512)

        var options = Expect.options(.image)
        options.refuseDamagedJpeg = true
        let strict = try await setup.client.openSession(options: options)
        XCTAssertTrue(strict.options.refuseDamagedJpeg)
        let error = await processJPEG(strict, corrupt)
        XCTAssertEqual(error?.code, .invalidArgument)
        XCTAssertTrue(error?.message.contains(decoded.warnings.first ?? "-") == true, error?.message ?? "")

        let noise = (0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 17) }
        let refused = await processJPEG(setup.session, noise)
        XCTAssertEqual(refused?.code, .invalidArgument)
        let sound = try await setup.session.process(jpeg: Data(try astronautBytes()))
        XCTAssertEqual(sound.warnings, [])
        try await setup.stillServed()
    }

    func testATruncatedJPEGIsDecodedWithAWarningOrRefusedWhenTheSessionAsks() async throws {
        let setup = try await bystanders()
        let whole = try astronautBytes()
        var options = Expect.options(.image)
        options.refuseDamagedJpeg = true
        let strict = try await setup.client.openSession(options: options)
        for fraction in [0.5, 0.99] {
            let cut = Array(whole.prefix(Int(Double(whole.count) * fraction)))
            let decoded = try await setup.session.process(jpeg: Data(cut))
            XCTAssertEqual(decoded.warnings.count, 1, "cut at \(fraction)")
            let error = await processJPEG(strict, cut)
            XCTAssertEqual(error?.code, .invalidArgument, "cut at \(fraction)")
        }
        // Cut inside the header: nothing to decode.
        let header = await processJPEG(setup.session, Array(whole.prefix(40)))
        XCTAssertEqual(header?.code, .invalidArgument)
        try await setup.stillServed()
    }

    /// An error inside a marker segment is the kind that once left the
    /// connection's header reader failing every later JPEG.
    func testAJPEGWithABogusHeaderLengthIsInvalidAndLaterJPEGsOnTheConnectionAreRead() async throws {
        let setup = try await bystanders()
        let bogus = HostileJPEG.replacingFrameHeaderLength(of: try astronautBytes(), with: 0)
        let error = await processJPEG(setup.session, bogus)
        XCTAssertEqual(error?.code, .invalidArgument)
        XCTAssertTrue(error?.message.contains("Bogus marker length") == true, error?.message ?? "")
        try await setup.stillServed()
    }

    /// The refusal names the scan limit: the decoder stopped counting scans
    /// instead of decoding ten thousand of them.
    func testAJPEGWithThousandsOfProgressiveScansIsRefusedByTheScanLimit() async throws {
        let setup = try await bystanders()
        let error = await processJPEG(setup.session, HostileJPEG.progressive(scans: 10_000))
        XCTAssertEqual(error?.code, .invalidArgument)
        XCTAssertTrue(error?.message.contains("scans") == true, error?.message ?? "")
        try await setup.stillServed()
    }

    func testAJPEGOverTheMaximumPixelsIsRefusedFromItsHeader() async throws {
        let setup = try await bystanders()
        // 60000 x 60000 would need 10.8 GB decoded; the header alone refuses it.
        let huge = HostileJPEG.replacingSize(of: try astronautBytes(), width: 60_000, height: 60_000)
        let error = await processJPEG(setup.session, huge)
        XCTAssertEqual(error?.code, .resourceExhausted)
        XCTAssertTrue(error?.message.contains("--max-pixels") == true, error?.message ?? "")
        try await setup.stillServed()
    }

    func testTheMaximumPixelsFlagApplies() async throws {
        let setup = try await bystanders(["--max-pixels", "300000"])
        let big = HostileJPEG.replacingSize(of: try astronautBytes(), width: 1000, height: 1000)
        let error = await processJPEG(setup.session, big)
        XCTAssertEqual(error?.code, .resourceExhausted)
        try await setup.stillServed()
    }

    func testARawFrameOverTheMaximumPixelsIsRefusedBeforeItsBufferIsRead() async throws {
        let setup = try await bystanders()
        let error = await Expect.failure {
            try await setup.session.process(.raw(Data(count: 16), format: .rgb, width: 10_000, height: 10_000))
        }
        XCTAssertEqual(error?.code, .resourceExhausted)
        try await setup.stillServed()
    }

    func testARawBufferShorterThanHeightTimesStrideIsInvalid() async throws {
        let setup = try await bystanders()
        let error = await Expect.failure {
            try await setup.session.process(.raw(Data(count: 100 * 320 - 1), format: .rgb, width: 100, height: 100, rowStride: 320))
        }
        XCTAssertEqual(error?.code, .invalidArgument)
        XCTAssertTrue(error?.message.contains("32000") == true, "names the expected size: \(error?.message ?? "")")
        try await setup.stillServed()
    }

    func testZeroWidthOrHeightIsInvalid() async throws {
        let setup = try await bystanders()
        for (width, height) in [(0, 10), (10, 0)] {
            let raw = await Expect.failure { try await setup.session.process(.raw(Data(), format: .gray8, width: width, height: height)) }
            XCTAssertEqual(raw?.code, .invalidArgument, "raw \(width)x\(height)")
            let jpeg = await processJPEG(setup.session, HostileJPEG.replacingSize(of: try astronautBytes(), width: width * 51, height: height * 51))
            XCTAssertEqual(jpeg?.code, .invalidArgument, "JPEG \(width * 51)x\(height * 51)")
        }
        let empty = await Expect.failure { try await setup.session.process(Faceworker_V1_Frame()) }
        XCTAssertEqual(empty?.code, .invalidArgument, "a frame without an image")
        try await setup.stillServed()
    }

    func testOptionValuesOutOfRangeAreInvalidAndNamed() async throws {
        let setup = try await bystanders()
        let cases: [(String, Faceworker_V1_SessionOptions)] = [
            ("min_detection_confidence", Expect.options { $0.minDetectionConfidence = 1.5 }),
            ("min_face_size", Expect.options { $0.minFaceSize = -0.1 }),
            ("min_tracking_confidence", Expect.options(.video) { $0.minTrackingConfidence = .nan }),
            ("num_faces", Expect.options { $0.numFaces = 0 }),
            ("max_missed_frames", Expect.options(.video) { $0.maxMissedFrames = 100_000 }),
            ("tracking_enabled", Expect.options(.image) { $0.trackingEnabled = true }),
            ("running_mode", Expect.options(.UNRECOGNIZED(9))),
        ]
        for (field, options) in cases {
            let error = await Expect.failure { try await setup.client.openSession(options: options) }
            XCTAssertEqual(error?.code, .invalidArgument, field)
            XCTAssertTrue(error?.message.contains(field) == true, "\(field): \(error?.message ?? "")")
        }
        let stats = try await setup.client.stats()
        XCTAssertEqual(stats.sessions, 2, "no refused session was opened")
        try await setup.stillServed()
    }

    func testTooManySessionsAreRefused() async throws {
        let setup = try await bystanders(["--max-sessions", "3", "--max-sessions-per-connection", "2"])
        let second = try await setup.client.openSession()
        let perConnection = await Expect.failure { try await setup.client.openSession() }
        XCTAssertEqual(perConnection?.code, .resourceExhausted)
        XCTAssertTrue(perConnection?.message.contains("--max-sessions-per-connection") == true)
        let third = try await setup.worker.connect()
        let workerWide = await Expect.failure { try await third.openSession() }
        XCTAssertEqual(workerWide?.code, .resourceExhausted)
        XCTAssertTrue(workerWide?.message.contains("--max-sessions") == true)
        try await second.close()
        _ = try await third.openSession()
        try await setup.stillServed()
    }

    func testTooManyWaitingFramesAreRefused() async throws {
        let setup = try await bystanders(["--max-queued-frames", "1", "--threads", "1"])
        let video = try await setup.client.openSession(options: Expect.options(.video))
        let jpeg = try TestPaths.jpeg("astronaut.jpg")
        let outcomes = try await withThrowingTaskGroup(of: Faceworker_V1_Status.Code.self) { group in
            for index in 0..<12 {
                group.addTask {
                    do {
                        _ = try await video.process(jpeg: jpeg, timestampMs: Int64(index))
                        return .ok
                    } catch let error as FaceWorkerError {
                        return error.code
                    }
                }
            }
            return try await group.reduce(into: [Faceworker_V1_Status.Code]()) { $0.append($1) }
        }
        XCTAssertTrue(outcomes.contains(.ok))
        XCTAssertTrue(outcomes.contains(.resourceExhausted), "\(outcomes)")
        XCTAssertTrue(outcomes.allSatisfy { $0 == .ok || $0 == .resourceExhausted || $0 == .invalidArgument }, "\(outcomes)")
        try await setup.stillServed()
    }

    func testALengthPrefixAboveTheMaximumClosesTheConnectionAfterTheError() async throws {
        let setup = try await bystanders(["--max-message-bytes", "1000000"])
        let socket = try UnixSocket(path: setup.worker.socketPath)
        try socket.send([0x00, 0x7F, 0xFF, 0xFF, 0xFF])
        let answer = try XCTUnwrap(try socket.receive())
        XCTAssertEqual(answer.callID, 0)
        XCTAssertEqual(answer.error.code, .resourceExhausted)
        XCTAssertTrue(answer.error.message.contains("1000000"), answer.error.message)
        XCTAssertNil(try socket.receive(), "the worker hangs up")
        try await setup.stillServed()
    }

    func testACompressedMessageIsUnimplementedAndClosesTheConnection() async throws {
        let setup = try await bystanders()
        let socket = try UnixSocket(path: setup.worker.socketPath)
        try socket.send([0x01, 0x00, 0x00, 0x00, 0x02, 0x08, 0x01])
        let answer = try XCTUnwrap(try socket.receive())
        XCTAssertEqual(answer.error.code, .unimplemented)
        XCTAssertNil(try socket.receive(), "the worker hangs up")
        try await setup.stillServed()
    }
}
