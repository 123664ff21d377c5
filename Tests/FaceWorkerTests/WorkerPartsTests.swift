import Foundation
import XCTest

@testable import WorkerCore

/// The worker's small parts that users see through GetStats and the socket.
final class WorkerPartsTests: XCTestCase {
    func testLatencyPercentilesFollowTheRecentFrames() {
        var window = LatencyWindow()
        XCTAssertTrue(window.percentiles() == (.zero, .zero, .zero))
        for value in 1...100 { window.record(.microseconds(value)) }
        XCTAssertTrue(window.percentiles() == (.microseconds(50), .microseconds(90), .microseconds(99)))
        for _ in 0..<LatencyWindow.capacity { window.record(.microseconds(7)) }
        XCTAssertEqual(window.count, LatencyWindow.capacity)
        XCTAssertTrue(window.percentiles() == (.microseconds(7), .microseconds(7), .microseconds(7)), "old samples leave the window")
    }

    func testConfigurationsOutOfRangeAreRefused() {
        var configuration = WorkerConfiguration(socketPath: "/tmp/x.sock", modelsDirectory: "models")
        XCTAssertNoThrow(try configuration.validate())
        configuration.socketMode = 0o1777
        XCTAssertThrowsError(try configuration.validate())
        configuration.socketMode = 0o600
        configuration.limits.maxQueuedFrames = 0
        XCTAssertThrowsError(try configuration.validate()) { error in
            XCTAssertTrue("\(error)".contains("--max-queued-frames"))
        }
        configuration.limits = WorkerLimits()
        configuration.handoffTokenLifetime = .zero
        XCTAssertThrowsError(try configuration.validate()) { error in
            XCTAssertTrue("\(error)".contains("--handoff-token-lifetime-ms"))
        }
        configuration.handoffTokenLifetime = .milliseconds(1)
        configuration.drainTimeout = .milliseconds(-1)
        XCTAssertThrowsError(try configuration.validate()) { error in
            XCTAssertTrue("\(error)".contains("--drain-timeout-ms"))
        }
    }

    func testASocketPathTooLongForTheKernelIsRefused() {
        XCTAssertThrowsError(try SocketFile.checkLength(of: "/tmp/" + String(repeating: "x", count: 120)))
        XCTAssertNoThrow(try SocketFile.checkLength(of: "/tmp/faceworker.sock"))
    }
}
