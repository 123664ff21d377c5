import FaceWorkerClient
import FaceWorkerProtocol
import Foundation
import XCTest

/// Ping and GetStats, answered by the worker's event loop.
final class HealthTests: XCTestCase {
    func testPingEchoesItsPayload() async throws {
        let worker = try await startWorker()
        let client = try await worker.connect()
        let payload = Data((0..<1000).map { UInt8(truncatingIfNeeded: $0 * 7) })
        let echoed = try await client.ping(payload: payload)
        XCTAssertEqual(echoed, payload)
        let empty = try await client.ping()
        XCTAssertEqual(empty, Data())

        // The round trip of an empty ping, printed for the record (DESIGN goal:
        // p50 at most 25 microseconds in a release build).
        var samples: [Duration] = []
        for _ in 0..<5000 {
            let start = ContinuousClock.now
            try await client.ping()
            samples.append(ContinuousClock.now - start)
        }
        samples.sort()
        print("empty ping round trip over 5000 calls: p50 \(samples[2500]), p99 \(samples[4950])")
    }
}
