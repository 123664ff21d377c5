import WorkerCore
import WorkerComposition
import FaceWorkerClient
import FaceWorkerProtocol
import Foundation
import Glibc
import Logging
import ServiceLifecycle
import XCTest

/// How the worker stops: as a service that whoever runs it shuts down, and
/// as the executable an operator stops with a signal.
final class GracefulShutdownTests: XCTestCase {
    func testTheServerIsAServiceThatCatchesNoSignalAndRemovesItsSocketOnGracefulShutdown() async throws {
        let directory = try WorkerProcess.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let socketPath = "\(directory)/worker.sock"
        let signalsBefore = Self.dispositions()
        let server = Self.server(socketPath: socketPath)
        let group = ServiceGroup(services: [server], logger: Self.quiet)
        let running = Task { try await group.run() }
        try await Self.waitUntilListening(socketPath, running)

        XCTAssertEqual(Self.dispositions(), signalsBefore, "serving leaves SIGTERM and SIGINT to whoever runs the server")
        let client = try await FaceWorkerClient.connect(socketPath: socketPath)
        let session = try await client.openSession()
        try await Expect.stillServes(session)

        await group.triggerGracefulShutdown()
        try await running.value
        XCTAssertFalse(FileManager.default.fileExists(atPath: socketPath), "the socket is removed")
        XCTAssertFalse(UnixSocket.accepts(socketPath))
    }

    func testCancellingTheServerClosesItsConnectionsAndRemovesItsSocket() async throws {
        let directory = try WorkerProcess.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let socketPath = "\(directory)/worker.sock"
        let server = Self.server(socketPath: socketPath)
        let running = Task { try await server.run() }
        try await Self.waitUntilListening(socketPath, running)
        let socket = try UnixSocket(path: socketPath)
        try socket.send(.ping(callID: 1))
        XCTAssertEqual(try socket.receive()?.callID, 1)

        running.cancel()
        try await running.value
        XCTAssertNil(try socket.receive(), "the connection is closed")
        XCTAssertFalse(FileManager.default.fileExists(atPath: socketPath), "the socket is removed")
    }

    func testASecondSignalDuringTheDrainDoesNotCutItShort() async throws {
        // A deadline far past the frames' time: only a second signal could cut the drain short.
        let worker = try await startWorker(["--threads", "1", "--drain-timeout-ms", "60000"])
        let socket = try UnixSocket(path: worker.socketPath)
        let (sessionID, answered) = try socket.sendFramesInFlight(8)

        worker.signal(SIGTERM)
        let draining = await worker.waitForLog("shutting down")
        XCTAssertTrue(draining, worker.log)
        worker.signal(SIGINT)
        worker.signal(SIGTERM)
        let results = answered + (try socket.frameResultsUntilClosed(sessionID: sessionID))
        let status = await worker.waitForExit(timeout: .seconds(60))
        XCTAssertEqual(status, 0, worker.log)
        XCTAssertEqual(results, Array(0..<8), "every frame sent before the first signal is answered")
        XCTAssertFalse(FileManager.default.fileExists(atPath: worker.socketPath))
    }

    func testAConnectionWithNothingInFlightIsClosedWithoutWaitingForTheDeadline() async throws {
        let worker = try await startWorker(["--threads", "1"])
        let socket = try UnixSocket(path: worker.socketPath)
        try socket.send(.ping(callID: 1))
        XCTAssertEqual(try socket.receive()?.callID, 1)

        worker.signal(SIGTERM)
        XCTAssertNil(try socket.receive(), "the worker hangs up")
        let status = await worker.waitForExit(timeout: .seconds(60))
        XCTAssertEqual(status, 0, worker.log)
        XCTAssertTrue(worker.log.contains("connections_cut_off=0"), worker.log)
    }

    func testAClientThatDoesNotReadItsAnswersIsCutOffAndTheWorkerStillStops() async throws {
        let worker = try await startWorker(["--threads", "1"])
        let socket = try UnixSocket(path: worker.socketPath)
        // Echoes far larger than the socket's buffers: the worker holds what
        // it cannot write, and stops reading, until the client reads.
        var ping = Faceworker_V1_ClientMessage.ping(callID: 1)
        ping.ping.payload = Data(repeating: 7, count: 2 << 20)
        let bytes = try TestFraming.frame(ping)
        let sent = socket.send(Array([[UInt8]](repeating: bytes, count: 4).joined()), untilStalledFor: .milliseconds(500))
        XCTAssertGreaterThan(sent, bytes.count, "the worker read a whole Ping")

        worker.signal(SIGTERM)
        let status = await worker.waitForExit(timeout: .seconds(60))
        XCTAssertEqual(status, 0, worker.log)
        XCTAssertTrue(worker.log.contains("connections_cut_off=1"), worker.log)
        XCTAssertFalse(FileManager.default.fileExists(atPath: worker.socketPath))
    }

    func testAPartThatCannotStartStopsTheOnesThatDid() async throws {
        let directory = try WorkerProcess.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let socketPath = "\(directory)/worker.sock", grpcPath = "\(directory)/grpc.sock", metricsPath = "\(directory)/metrics.sock"
        // A file that is not a socket on the gRPC path: the door refuses to replace it.
        try Data("precious".utf8).write(to: URL(fileURLWithPath: grpcPath))
        var configuration = WorkerConfiguration(socketPath: socketPath, modelsDirectory: TestPaths.models)
        configuration.inferenceThreads = 1
        configuration.grpcSocketPath = grpcPath
        configuration.metrics = MetricsEndpoint(address: .unixSocket(path: metricsPath))
        let server = FaceWorkerServer(configuration: configuration, logger: Self.quiet)
        do {
            try await server.run()
            XCTFail("the worker started beside a live gRPC socket")
        } catch let error as WorkerStartupError {
            XCTAssertTrue(error.description.contains(grpcPath), error.description)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: socketPath), "the worker's own socket is removed")
        XCTAssertFalse(FileManager.default.fileExists(atPath: metricsPath), "the metrics socket is removed")
        XCTAssertEqual(try String(contentsOfFile: grpcPath, encoding: .utf8), "precious", "the file is left alone")
    }

    func testASocketPathThatDoesNotFitIsRefusedSayingWhatFits() async throws {
        let directory = try WorkerProcess.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let cases = [
            ("/tmp/" + String(repeating: "x", count: 120) + ".sock", "must be 1 to 103 bytes long"),
            // Short enough itself, but the worker first binds in a private directory beside it.
            ("/tmp/" + String(repeating: "d", count: 80) + "/w.sock", "in a directory with a shorter path"),
        ]
        for (path, explanation) in cases {
            let worker = try WorkerProcess(socketPath: path, directory: directory)
            let status = await worker.waitForExit(timeout: .seconds(30))
            XCTAssertNotNil(status)
            XCTAssertNotEqual(status, 0)
            XCTAssertTrue(worker.log.contains(explanation), worker.log)
        }
    }

    private static let quiet = Logger(label: "face-worker") { _ in SwiftLogNoOpLogHandler() }

    private static func server(socketPath: String) -> FaceWorkerServer {
        var configuration = WorkerConfiguration(socketPath: socketPath, modelsDirectory: TestPaths.models)
        configuration.inferenceThreads = 1
        return FaceWorkerServer(configuration: configuration, logger: quiet)
    }

    /// Waits until the socket accepts connections; fails if `running` ends first.
    private static func waitUntilListening(_ socketPath: String, _ running: Task<Void, any Error>) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while !UnixSocket.accepts(socketPath) {
            guard ContinuousClock.now < deadline else {
                running.cancel()
                throw WorkerExited(status: -1, log: "the server is not listening on \(socketPath)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// The handlers of SIGTERM and SIGINT, by address (0 for the default).
    private static func dispositions() -> [UInt] {
        [SIGTERM, SIGINT].map { number in
            var action = sigaction()
            sigaction(number, nil, &action)
            return action.__sigaction_handler.sa_handler.map { unsafeBitCast($0, to: UInt.self) } ?? 0
        }
    }
}
