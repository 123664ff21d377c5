import FaceWorkerClient
import FaceWorkerProtocol
import Foundation
import ImagingTesting
import XCTest

/// Damaged and hostile JPEGs on the real decoder, in-process: each is decoded
/// with libjpeg's warning or refused with a clear error, and harms nothing
/// else: after each, a session on the same connection and one on another
/// connection still find the astronaut. Bad input that needs no decoder is
/// tested on the fake pipeline (WorkerCoreTests); only the limit set by a
/// flag starts the worker's binary, whose command line is what sets it.
final class BadInputTests: InProcessModelTestCase {
    /// Two connections, and on each an image session known to work.
    private struct Bystanders {
        let client: InProcessModelConnection
        let session: UInt64
        let other: InProcessModelConnection
        let otherSession: UInt64

        /// Both sessions still find the astronaut.
        func stillServed(file: StaticString = #filePath, line: UInt = #line) async throws {
            let astronaut = Faceworker_V1_Frame.jpeg(try TestPaths.jpeg("astronaut.jpg"))
            Expect.astronaut(try await client.process(astronaut, in: session), file: file, line: line)
            Expect.astronaut(try await other.process(astronaut, in: otherSession), file: file, line: line)
        }
    }

    private func bystanders() async throws -> Bystanders {
        let worker = try startInProcessWorker()
        let client = try await worker.connect()
        let other = try await worker.connect()
        let bystanders = Bystanders(client: client, session: try await client.open(Expect.options(.image)),
                                    other: other, otherSession: try await other.open(Expect.options(.image)))
        try await bystanders.stillServed()
        return bystanders
    }

    private func astronautBytes() throws -> [UInt8] {
        [UInt8](try TestPaths.jpeg("astronaut.jpg"))
    }

    /// An image session that refuses damaged JPEGs, on `client`.
    private func strictSession(on client: InProcessModelConnection) async throws -> UInt64 {
        let opened = try await client.openSession(Expect.options(.image) { $0.refuseDamagedJpeg = true })
        XCTAssertTrue(opened.options.refuseDamagedJpeg, "the option is echoed")
        return opened.sessionID
    }

    /// Damaged compressed data behind a sound header is decoded as libjpeg
    /// decodes it, with its warning, unless the session refuses damaged JPEGs;
    /// bytes that are no JPEG at all are refused either way.
    func testACorruptJPEGIsDecodedWithAWarningOrRefusedWhenTheSessionAsks() async throws {
        let setup = try await bystanders()
        var corrupt = try astronautBytes()
        // A restart marker in the middle of the compressed data.
        corrupt.replaceSubrange(corrupt.count / 2..<corrupt.count / 2 + 2, with: [0xFF, 0xD3])
        let decoded = try await setup.client.process(.jpeg(Data(corrupt)), in: setup.session)
        XCTAssertEqual(decoded.warnings.count, 1)
        XCTAssertTrue(decoded.warnings.first?.contains("JPEG") == true, "\(decoded.warnings)")
        XCTAssertEqual(decoded.imageWidth, 512)

        let strict = try await strictSession(on: setup.client)
        let error = try await setup.client.refusal(of: .jpeg(Data(corrupt)), in: strict)
        XCTAssertEqual(error.code, .invalidArgument)
        XCTAssertTrue(error.message.contains(decoded.warnings.first ?? "-"), error.message)

        let noise = (0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 17) }
        let refused = try await setup.client.refusal(of: .jpeg(Data(noise)), in: setup.session)
        XCTAssertEqual(refused.code, .invalidArgument)
        let sound = try await setup.client.process(.jpeg(Data(try astronautBytes())), in: setup.session)
        XCTAssertEqual(sound.warnings, [])
        try await setup.stillServed()
    }

    func testATruncatedJPEGIsDecodedWithAWarningOrRefusedWhenTheSessionAsks() async throws {
        let setup = try await bystanders()
        let whole = try astronautBytes()
        let strict = try await strictSession(on: setup.client)
        for fraction in [0.5, 0.99] {
            let cut = Data(whole.prefix(Int(Double(whole.count) * fraction)))
            let decoded = try await setup.client.process(.jpeg(cut), in: setup.session)
            XCTAssertEqual(decoded.warnings.count, 1, "cut at \(fraction)")
            let error = try await setup.client.refusal(of: .jpeg(cut), in: strict)
            XCTAssertEqual(error.code, .invalidArgument, "cut at \(fraction)")
        }
        // Cut inside the header: nothing to decode.
        let header = try await setup.client.refusal(of: .jpeg(Data(whole.prefix(40))), in: setup.session)
        XCTAssertEqual(header.code, .invalidArgument)
        try await setup.stillServed()
    }

    /// An error inside a marker segment is the kind that once left the
    /// connection's header reader failing every later JPEG.
    func testAJPEGWithABogusHeaderLengthIsInvalidAndLaterJPEGsOnTheConnectionAreRead() async throws {
        let setup = try await bystanders()
        let bogus = HostileJPEG.replacingFrameHeaderLength(of: try astronautBytes(), with: 0)
        let error = try await setup.client.refusal(of: .jpeg(Data(bogus)), in: setup.session)
        XCTAssertEqual(error.code, .invalidArgument)
        XCTAssertTrue(error.message.contains("Bogus marker length"), error.message)
        try await setup.stillServed()
    }

    /// The refusal names the scan limit: the decoder stopped counting scans
    /// instead of decoding ten thousand of them.
    func testAJPEGWithThousandsOfProgressiveScansIsRefusedByTheScanLimit() async throws {
        let setup = try await bystanders()
        let error = try await setup.client.refusal(of: .jpeg(Data(HostileJPEG.progressive(scans: 10_000))), in: setup.session)
        XCTAssertEqual(error.code, .invalidArgument)
        XCTAssertTrue(error.message.contains("scans"), error.message)
        try await setup.stillServed()
    }

    /// The flag's value reaches the limit only through the worker's command
    /// line, so this one starts the worker's binary.
    func testTheMaximumPixelsFlagApplies() async throws {
        let worker = try await startWorker(["--max-pixels", "300000"])
        let client = try await worker.connect()
        let session = try await client.openSession(options: Expect.options(.image))
        let big = HostileJPEG.replacingSize(of: try astronautBytes(), width: 1000, height: 1000)
        let error = await Expect.failure { try await session.process(jpeg: Data(big)) }
        XCTAssertEqual(error?.code, .resourceExhausted)
        XCTAssertTrue(error?.message.contains("300000") == true, error?.message ?? "")
        try await Expect.stillServes(session)
        await client.close()
    }
}
