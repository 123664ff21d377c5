import FaceWorkerClient
import FaceWorkerProtocol
import Foundation
import XCTest

/// GetStats: what an operator reads to see how the worker is doing.
final class StatsTests: XCTestCase {
    func testStatsCountFramesSessionsAndConnectionsAndReportLatencies() async throws {
        let worker = try await startWorker(["--threads", "2"])
        let client = try await worker.connect()
        let session = try await client.openSession(options: Expect.options(.image) { $0.landmarkMode = .all })
        for _ in 0..<3 { _ = try await session.process(jpeg: try TestPaths.jpeg("astronaut.jpg")) }
        _ = await Expect.failure { try await session.process(jpeg: Data([0xFF, 0xD8, 0x00])) }
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
        XCTAssertEqual(stats.models.map(\.name), [
            "face_detection_short_range.tflite", "face_detection_full_range_sparse.tflite", "face_landmark.tflite", "face_landmark_with_attention.tflite",
            "face_landmarker.task",
        ])
        // The checksum make models verifies for the short-range detector.
        XCTAssertEqual(stats.models.first?.sha256, "bbff11cebd1eb27a1e004cae0b0e63ec8c551cbf34a4451148b4908b8db3eca8")
        XCTAssertEqual(stats.models.first?.sizeBytes, 229_714)
    }

    func testEveryResultCarriesItsStageTimings() async throws {
        let worker = try await startWorker()
        let client = try await worker.connect()
        let session = try await client.openSession(options: Expect.options(.image) { $0.landmarkMode = .all })
        let before = Int64(Date().timeIntervalSince1970 * 1_000_000)
        let timings = try await session.process(jpeg: try TestPaths.jpeg("camera.jpg")).timings
        let after = Int64(Date().timeIntervalSince1970 * 1_000_000)
        XCTAssertTrue((before...after).contains(timings.receivedUnixUs))
        XCTAssertGreaterThan(timings.decodeUs, 0)
        XCTAssertGreaterThan(timings.detectUs, 0)
        XCTAssertGreaterThan(timings.landmarksUs, 0)
        XCTAssertGreaterThanOrEqual(timings.totalUs, timings.queuedUs + timings.decodeUs + timings.detectUs + timings.landmarksUs)
    }
}
