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

    func testAClientThatDoesNotReadGetsBackpressureNotUnboundedMemory() async throws {
        let worker = try await startWorker()
        let observer = try await worker.connect()
        let before = try await observer.stats().residentMemoryBytes
        // 64 MB of pings whose 64 KB answers are never read.
        var ping = Faceworker_V1_ClientMessage()
        ping.ping.payload = Data(count: 64 << 10)
        let one = try TestFraming.frame(ping)
        var flood: [UInt8] = []
        flood.reserveCapacity(1000 * one.count)
        for _ in 0..<1000 { flood.append(contentsOf: one) }
        let socket = try UnixSocket(path: worker.socketPath)
        let taken = socket.send(flood, untilStalledFor: .milliseconds(500))
        XCTAssertLessThan(taken, 16 << 20, "the worker stops reading while its answers pile up")
        let after = try await observer.stats().residentMemoryBytes
        XCTAssertLessThan(after, before + (64 << 20), "resident memory stays bounded: \(before) -> \(after) bytes")
        try await observer.ping()
    }
}
