import Foundation
import XCTest

@testable import FaceWorker

/// The worker's small parts that users see through GetStats and the socket.
final class WorkerPartsTests: XCTestCase {
    func testSHA256MatchesTheStandardsVectors() {
        XCTAssertEqual(SHA256.hexDigest(of: [UInt8]()), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(SHA256.hexDigest(of: Array("abc".utf8)), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(
            SHA256.hexDigest(of: Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        XCTAssertEqual(
            SHA256.hexDigest(of: [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    func testLatencyPercentilesFollowTheRecentFrames() {
        var window = LatencyWindow()
        XCTAssertTrue(window.percentiles() == (0, 0, 0))
        for value in 1...100 { window.record(UInt64(value)) }
        XCTAssertTrue(window.percentiles() == (50, 90, 99))
        for _ in 0..<LatencyWindow.capacity { window.record(7) }
        XCTAssertEqual(window.count, LatencyWindow.capacity)
        XCTAssertTrue(window.percentiles() == (7, 7, 7), "old samples leave the window")
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
    }

    func testASocketPathTooLongForTheKernelIsRefused() {
        XCTAssertThrowsError(try SocketFile.checkLength(of: "/tmp/" + String(repeating: "x", count: 120)))
        XCTAssertNoThrow(try SocketFile.checkLength(of: "/tmp/faceworker.sock"))
    }
}
