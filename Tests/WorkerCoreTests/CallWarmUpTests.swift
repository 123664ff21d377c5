import FaceDetection
import FaceWorkerProtocol
import Imaging
import ImagingTesting
import Logging
import WorkerCore
import XCTest

/// The worker's own calls before it says it is ready: each session's frame
/// goes the way of a client's and is answered, and none of it shows in what
/// clients and operators see of the worker afterwards.
final class CallWarmUpTests: XCTestCase {
    private var worker: InProcessWorker!

    override func tearDown() async throws {
        await worker.stop()
    }

    private static func warmUp(sessions: [FaceOptions]) throws -> CallWarmUp {
        let image = try RGBImage(width: 48, height: 32, pixels: [UInt8](repeating: 128, count: 48 * 32 * 3))
        return CallWarmUp(jpeg: try JPEGEncoder().encode(image), sessions: sessions)
    }

    private static var videoAndImage: [FaceOptions] {
        var video = FaceOptions()
        video.runningMode = .video
        video.trackingEnabled = true
        var image = FaceOptions()
        image.runningMode = .image
        return [video, image]
    }

    private let logger = Logger(label: "warm-up") { _ in SwiftLogNoOpLogHandler() }

    func testEverySessionsFrameIsAnsweredAndLeavesNoSessionCountOrFrameBehind() async throws {
        worker = InProcessWorker()
        let warmUp = try Self.warmUp(sessions: Self.videoAndImage)
        let answered = await warmUp.run(on: worker.core, logger: logger)
        XCTAssertEqual(answered, 2, "one result per session")

        var connection = try await worker.connect()
        let stats = try await connection.stats()
        XCTAssertEqual(stats.framesProcessed, 0, "the warm-up's frames are not counted")
        XCTAssertEqual(stats.framesFailed, 0)
        XCTAssertEqual(stats.sessions, 0, "the warm-up's sessions are closed")

        var options = Faceworker_V1_SessionOptions()
        options.runningMode = .video
        let session = try await connection.open(options)
        try await connection.sendFrame(to: session, timestampMs: 5)
        guard case .frameResult(let result) = try await connection.receive().kind else { return XCTFail("a client's frame is answered") }
        XCTAssertEqual(result.timestampMs, 5)
        let after = try await connection.stats()
        XCTAssertEqual(after.framesProcessed, 1, "a client's frames are counted as before")
    }

    func testASessionTheWorkerRefusesEndsItsWarmUpAndTheOthersStillRun() async throws {
        worker = InProcessWorker()
        var refused = FaceOptions()
        refused.numFaces = 0
        let warmUp = try Self.warmUp(sessions: [refused] + Self.videoAndImage)
        let answered = await warmUp.run(on: worker.core, logger: logger)
        XCTAssertEqual(answered, 2, "the refused session's frame is never sent; the other two are answered")
    }

    func testAWarmUpFrameTheWorkerRefusesIsNotCountedEither() async throws {
        worker = InProcessWorker(limits: { var limits = WorkerLimits(); limits.maxPixels = 100; return limits }())
        let warmUp = try Self.warmUp(sessions: Self.videoAndImage)
        let answered = await warmUp.run(on: worker.core, logger: logger)
        XCTAssertEqual(answered, 0, "a 48x32 frame is over the worker's 100 pixels")
        var connection = try await worker.connect()
        let stats = try await connection.stats()
        XCTAssertEqual(stats.framesFailed, 0, "the refused warm-up frames are not counted")
        XCTAssertEqual(stats.sessions, 0, "their sessions are closed")
    }

    func testAWorkerWithNoRoomForASessionAnswersNoWarmUpFrameAndServesOn() async throws {
        worker = InProcessWorker(limits: { var limits = WorkerLimits(); limits.maxSessions = 0; return limits }())
        let warmUp = try Self.warmUp(sessions: Self.videoAndImage)
        let answered = await warmUp.run(on: worker.core, logger: logger)
        XCTAssertEqual(answered, 0)
        var connection = try await worker.connect()
        let stats = try await connection.stats()
        XCTAssertEqual(stats.sessions, 0, "the worker still answers")
    }
}
