import FaceWorkerProtocol
import Foundation
import Imaging
import ImagingTesting
import WorkerCore
import XCTest

/// Frames as the core admits them, before any inference: a JPEG is checked by
/// its header (size, pixels allowed) and a raw frame by its layout, each
/// refusal saying what was wrong, and the session goes on.
final class FrameAdmissionTests: XCTestCase {
    private var worker: InProcessWorker!

    override func setUp() {
        worker = InProcessWorker(limits: { var limits = WorkerLimits(); limits.maxPixels = 64 * 64; return limits }())
    }

    override func tearDown() async throws {
        await worker.stop()
    }

    private func jpeg(width: Int, height: Int) throws -> Data {
        let image = try RGBImage(width: width, height: height, pixels: [UInt8](repeating: 128, count: width * height * 3))
        return Data(try JPEGEncoder().encode(image))
    }

    private func send(jpeg: Data, to session: UInt64, timestampMs: Int64, on connection: inout InProcessConnection) async throws
        -> Faceworker_V1_WorkerMessage {
        var frame = Faceworker_V1_Frame()
        frame.jpeg = jpeg
        frame.timestampMs = timestampMs
        var request = Faceworker_V1_ProcessFrameRequest()
        request.sessionID = session
        request.frame = frame
        try await connection.send(.processFrame(request))
        return try await connection.receive()
    }

    func testAJPEGIsMeasuredByItsHeaderAndOneOverThePixelLimitIsRefused() async throws {
        var connection = try await worker.connect()
        let session = try await connection.open(Faceworker_V1_SessionOptions())
        let fits = try await send(jpeg: try jpeg(width: 48, height: 32), to: session, timestampMs: 1, on: &connection)
        guard case .frameResult(let result) = fits.kind else { return XCTFail("\(fits)") }
        XCTAssertEqual([result.imageWidth, result.imageHeight], [48, 32])

        let large = try await send(jpeg: try jpeg(width: 80, height: 64), to: session, timestampMs: 2, on: &connection)
        guard case .error(let status) = large.kind else { return XCTFail("\(large)") }
        XCTAssertEqual(status.code, .resourceExhausted)
        XCTAssertTrue(status.message.contains("\(64 * 64)") && status.message.contains("--max-pixels"),
                      "names the limit and its flag: \(status.message)")
    }

    func testBytesThatAreNotAJPEGAreRefusedAndTheSessionGoesOn() async throws {
        var connection = try await worker.connect()
        let session = try await connection.open(Faceworker_V1_SessionOptions())
        let garbage = try await send(jpeg: Data("not a jpeg".utf8), to: session, timestampMs: 1, on: &connection)
        guard case .error(let status) = garbage.kind else { return XCTFail("\(garbage)") }
        XCTAssertEqual(status.code, .invalidArgument)
        XCTAssertFalse(status.message.isEmpty)
        let next = try await send(jpeg: try jpeg(width: 16, height: 16), to: session, timestampMs: 2, on: &connection)
        guard case .frameResult = next.kind else { return XCTFail("\(next)") }
    }

    func testAFrameForAnUnknownSessionIsNotFound() async throws {
        var connection = try await worker.connect()
        let answer = try await send(jpeg: try jpeg(width: 16, height: 16), to: 999, timestampMs: 1, on: &connection)
        guard case .error(let status) = answer.kind else { return XCTFail("\(answer)") }
        XCTAssertEqual(status.code, .notFound)
        XCTAssertTrue(status.message.contains("999"), status.message)
    }

    func testAJPEGWhoseHeaderSaysZeroWidthOrHeightIsInvalid() async throws {
        var connection = try await worker.connect()
        let session = try await connection.open(Faceworker_V1_SessionOptions())
        for (width, height) in [(0, 16), (16, 0)] {
            let bytes = HostileJPEG.replacingSize(of: [UInt8](try jpeg(width: 16, height: 16)), width: width, height: height)
            let answer = try await send(jpeg: Data(bytes), to: session, timestampMs: Int64(width + 1), on: &connection)
            guard case .error(let status) = answer.kind else { return XCTFail("\(width)x\(height): \(answer)") }
            XCTAssertEqual(status.code, .invalidArgument, "\(width)x\(height)")
        }
    }
}
