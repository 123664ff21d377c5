import FaceWorkerProtocol
import Foundation
import XCTest

/// Ping, answered on the connection's event loop without the face pipeline.
final class HealthTests: XCTestCase {
    private var worker: InProcessWorker!

    override func setUp() {
        worker = InProcessWorker()
    }

    override func tearDown() async throws {
        await worker.stop()
    }

    private static func ping(_ payload: Data) -> Faceworker_V1_ClientMessage.OneOf_Kind {
        var ping = Faceworker_V1_PingRequest()
        ping.payload = payload
        return .ping(ping)
    }

    func testPingEchoesItsPayload() async throws {
        var connection = try await worker.connect()
        let payloads: [Data] = [
            Data(),
            Data([0]),
            Data((0...255).map { UInt8($0) }),
            Data((0..<1000).map { UInt8(truncatingIfNeeded: $0 * 7) }),
            Data(repeating: 0xA5, count: 64 << 10),
        ]
        for payload in payloads {
            let call = try await connection.send(Self.ping(payload))
            let answer = try await connection.receive()
            XCTAssertEqual(answer.callID, call)
            guard case .ping(let pong) = answer.kind else { return XCTFail("\(answer)") }
            XCTAssertEqual(pong.payload, payload, "a \(payload.count)-byte payload comes back byte for byte")
        }
    }

    /// Many pings in flight at once on one connection: each call gets its own
    /// payload back, never another's, and none is left unanswered.
    func testPingsInFlightAtOnceAreEachAnsweredWithTheirOwnPayload() async throws {
        var connection = try await worker.connect()
        let count = 200
        func payload(_ index: Int) -> Data {
            Data("ping \(index)".utf8) + Data(repeating: UInt8(truncatingIfNeeded: index), count: index)
        }
        var sent: [UInt64: Int] = [:]
        for index in 0..<count {
            sent[try await connection.send(Self.ping(payload(index)))] = index
        }
        var echoed: [UInt64: Data] = [:]
        for answer in try await connection.receive(answering: Set(sent.keys)) {
            guard case .ping(let pong) = answer.kind else { return XCTFail("\(answer)") }
            XCTAssertNil(echoed.updateValue(pong.payload, forKey: answer.callID), "call \(answer.callID) is answered once")
        }
        XCTAssertEqual(echoed.count, count, "every ping is answered")
        for (call, index) in sent {
            XCTAssertEqual(echoed[call], payload(index), "call \(call)")
        }
    }
}
