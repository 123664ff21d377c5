@testable import MetricsHTTP
import XCTest

/// The metrics endpoint's connection limit: what a scraper relies on when
/// others crowd the endpoint.
final class ConnectionGateTests: XCTestCase {
    func testAdmitsUpToTheLimitAndAdmitsAgainOnceOneLeaves() {
        let gate = ConnectionGate(limit: 3)
        XCTAssertEqual((0..<3).map { _ in gate.enter() }, [true, true, true])
        XCTAssertFalse(gate.enter(), "a fourth connection is refused")
        gate.leave()
        XCTAssertTrue(gate.enter(), "a connection that left makes room for one")
        XCTAssertFalse(gate.enter())
    }

    func testConcurrentArrivalsAreAdmittedExactlyUpToTheLimit() async {
        let gate = ConnectionGate(limit: 16)
        let admitted = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<200 { group.addTask { gate.enter() } }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        XCTAssertEqual(admitted, 16)
    }
}
