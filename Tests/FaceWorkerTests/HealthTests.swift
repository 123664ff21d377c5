@testable import FaceWorkerClient
import FaceWorkerProtocol
import Foundation
import XCTest

/// Ping and GetStats, answered by the worker's event loop.
final class HealthTests: XCTestCase {
    func testPingEchoesItsPayload() async throws {
        let worker = try await startWorker()
        let client = try await worker.connect()
        let payloads: [Data] = [
            Data(),
            Data([0]),
            Data((0...255).map { UInt8($0) }),
            Data((0..<1000).map { UInt8(truncatingIfNeeded: $0 * 7) }),
            Data(repeating: 0xA5, count: 64 << 10),
        ]
        for payload in payloads {
            let echoed = try await client.ping(payload: payload)
            XCTAssertEqual(echoed, payload, "a \(payload.count)-byte payload comes back byte for byte")
        }

        // Many pings in flight at once on one connection: each caller gets its own payload back,
        // never another's, and none is left unanswered.
        let count = 200
        let echoes = try await withThrowingTaskGroup(of: (Int, Data).self) { group in
            for index in 0..<count {
                group.addTask {
                    let payload = Data("ping \(index)".utf8) + Data(repeating: UInt8(truncatingIfNeeded: index), count: index)
                    return (index, try await client.ping(payload: payload))
                }
            }
            var echoes: [Int: Data] = [:]
            for try await (index, echoed) in group { echoes[index] = echoed }
            return echoes
        }
        XCTAssertEqual(echoes.count, count, "every ping is answered once")
        for (index, echoed) in echoes {
            XCTAssertEqual(echoed, Data("ping \(index)".utf8) + Data(repeating: UInt8(truncatingIfNeeded: index), count: index))
        }
        XCTAssertEqual(client.unansweredCalls, 0)
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
