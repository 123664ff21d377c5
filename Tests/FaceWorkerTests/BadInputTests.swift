import FaceWorkerClient
import FaceWorkerProtocol
import Foundation
import ImagingTesting
import XCTest

/// Bad JPEGs and limits set by the worker's flags get a clear error and harm
/// nothing else: after each, a session on the same connection and one on
/// another connection still get correct results. The bad input that needs no
/// decoder and no process is tested in-process (WorkerCoreTests).
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

    private func processJPEG(_ session: FaceWorkerSession, _ bytes: [UInt8]) async -> FaceWorkerError? {
        await Expect.failure { try await session.process(jpeg: Data(bytes)) }
    }

    private func astronautBytes() throws -> [UInt8] {
        [UInt8](try TestPaths.jpeg("astronaut.jpg"))
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

}
