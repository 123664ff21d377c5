@testable import FaceDetection
import FaceWorkerClient
import FaceWorkerProtocol
import Foundation
import XCTest

/// GetStats: what an operator reads to see how the worker is doing, from the
/// core on the real models, in-process.
final class StatsTests: InProcessModelTestCase {
    func testStatsCountFramesSessionsAndConnectionsAndReportLatencies() async throws {
        let client = try await startInProcessWorker().connect()
        let session = try await client.open(Expect.options(.image) { $0.landmarkMode = .all })
        for _ in 0..<3 { _ = try await client.process(.jpeg(try TestPaths.jpeg("astronaut.jpg")), in: session) }
        let failed = try await client.call { .processFrame(callID: $0, session: session, .jpeg(Data([0xFF, 0xD8, 0x00]))) }
        XCTAssertEqual(failed.error.code, .invalidArgument, "\(failed)")
        let stats = try await client.stats()
        XCTAssertEqual(stats.connections, 1)
        XCTAssertEqual(stats.sessions, 1)
        XCTAssertEqual(stats.framesProcessed, 3)
        XCTAssertEqual(stats.framesFailed, 1)
        XCTAssertEqual(stats.framesDropped, 0)
        XCTAssertEqual(stats.inferenceThreads, 2)
        XCTAssertGreaterThan(stats.uptimeSeconds, 0)
        XCTAssertGreaterThan(stats.residentMemoryBytes, 10 << 20, "the models alone take megabytes")
        XCTAssertEqual(stats.stageLatencies.map(\.stage), [.queued, .decode, .detect, .landmarks, .total])
        for latency in stats.stageLatencies {
            XCTAssertEqual(latency.count, 3, "\(latency.stage)")
            XCTAssertLessThanOrEqual(latency.p50Us, latency.p90Us)
            XCTAssertLessThanOrEqual(latency.p90Us, latency.p99Us)
        }
        let total = try XCTUnwrap(stats.stageLatencies.last)
        let landmarks = try XCTUnwrap(stats.stageLatencies.first { $0.stage == .landmarks })
        XCTAssertGreaterThan(landmarks.p50Us, 0)
        XCTAssertGreaterThanOrEqual(total.p99Us, landmarks.p99Us)
        // The repository's models directory holds every file of the manifest, the Face
        // Landmarker's bundle included, with the checksums make models verified.
        let manifest = try ModelManifest.load(directory: TestPaths.models)
        XCTAssertEqual(stats.models.map(\.name), manifest.files.map(\.name))
        XCTAssertEqual(stats.models.map(\.sha256), manifest.files.map(\.sha256))
        XCTAssertEqual(stats.models.first?.sizeBytes, 229_714)
    }

    func testEveryResultCarriesItsStageTimings() async throws {
        let client = try await startInProcessWorker().connect()
        let session = try await client.open(Expect.options(.image) { $0.landmarkMode = .all })
        let before = Int64(Date().timeIntervalSince1970 * 1_000_000)
        let timings = try await client.process(.jpeg(try TestPaths.jpeg("camera.jpg")), in: session).timings
        let after = Int64(Date().timeIntervalSince1970 * 1_000_000)
        XCTAssertTrue((before...after).contains(timings.receivedUnixUs))
        XCTAssertGreaterThan(timings.decodeUs, 0)
        XCTAssertGreaterThan(timings.detectUs, 0)
        XCTAssertGreaterThan(timings.landmarksUs, 0)
        XCTAssertGreaterThanOrEqual(timings.totalUs, timings.queuedUs + timings.decodeUs + timings.detectUs + timings.landmarksUs)
    }
}
