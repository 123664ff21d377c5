import FaceWorkerClient
import FaceWorkerProtocol
import Foundation
import XCTest

/// The part of the conformance file, `proto/faceworker/v1/defaults.json`,
/// that only the worker's binary can show: it listens where the file's
/// environment variable says, which it reads when it starts. The options'
/// defaults and ranges are the core's, checked in-process (WorkerCoreTests),
/// and the socket rule itself with the wire module's tests.
final class ConformanceTests: XCTestCase {
    func testTheWorkerListensWhereTheEnvironmentVariableSays() async throws {
        let directory = try WorkerProcess.makeTemporaryDirectory()
        addTeardownBlock { try? FileManager.default.removeItem(atPath: directory) }
        let path = "\(directory)/named.sock"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestPaths.workerBinary)
        process.arguments = ["--models", TestPaths.models]
        process.environment = ProcessInfo.processInfo.environment.merging([WorkerSocket.environmentVariable: path]) { $1 }
        process.standardError = FileHandle.nullDevice
        try process.run()
        addTeardownBlock {
            process.terminate()
            process.waitUntilExit()
        }
        let deadline = ContinuousClock.now + .seconds(60)
        while !UnixSocket.accepts(path) {
            XCTAssertTrue(process.isRunning, "the worker exited")
            guard process.isRunning, ContinuousClock.now < deadline else { return XCTFail("the worker never listened on \(path)") }
            try await Task.sleep(for: .milliseconds(20))
        }
        let client = try await FaceWorkerClient.connect(socketPath: WorkerSocket.path(environment: [WorkerSocket.environmentVariable: path]))
        try await client.ping()
        await client.close()
    }
}
