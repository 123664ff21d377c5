@testable import WorkerCore
import Foundation
import XCTest

/// The parts of a worker report from their own threads at the same moment
/// (the inference threads beside the handoff socket and the doors); the
/// sanitizer run holds these tests to no race on the count they share.
final class PartsStartedTests: XCTestCase {
    func testPartsReportingTogetherFromManyThreadsWakeEveryWaiterOnce() async {
        let started = PartsStarted()
        let parts = 16
        async let all = started.wait(for: parts)
        async let half = started.wait(for: parts / 2)
        // Threads, not tasks, so the reports contend as the services' threads do.
        DispatchQueue.concurrentPerform(iterations: parts) { _ in started.report() }
        let results = await (all, half)
        XCTAssertTrue(results.0)
        XCTAssertTrue(results.1)
        let late = await started.wait(for: parts)
        XCTAssertTrue(late, "a waiter that comes after the reports finds them counted")
    }

    func testAWaiterCancelledBeforeEnoughPartsReportHearsFalse() async {
        let started = PartsStarted()
        let waiter = Task { await started.wait(for: 3) }
        DispatchQueue.concurrentPerform(iterations: 2) { _ in started.report() }
        waiter.cancel()
        let outcome = await waiter.value
        XCTAssertFalse(outcome)
    }
}
