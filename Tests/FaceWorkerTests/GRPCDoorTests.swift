import WorkerCore
import WorkerComposition
import FaceWorkerClient
import FaceWorkerGRPC
import FaceWorkerProtocol
import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2Posix
import Glibc
import Logging
import ServiceLifecycle
import XCTest

/// The gRPC door against the worker's own socket, in one process: the same
/// answers, the same peer checks, and a drain that answers what it read.
/// (The Python grpcio tests cover each running mode and the bad input.)
final class GRPCDoorTests: XCTestCase {
    func testAFrameGetsTheSameAnswerThroughEitherDoor() async throws {
        try await withServer { paths, _ in
            let jpeg = try TestPaths.jpeg("astronaut.jpg")
            let options = Expect.options(.image) { $0.landmarkMode = .all; $0.classificationMode = .all }
            let client = try await FaceWorkerClient.connect(socketPath: paths.lean)
            let lean = try await client.openSession(options: options).process(jpeg: jpeg)
            await client.close()

            let answers = try await Self.session(paths.grpc, options: options, frames: [Self.frame(jpeg, timestampMs: 0)])
            XCTAssertEqual(answers.count, 2, "opened, then the frame's result")
            guard case .result(var result)? = answers.last else { return XCTFail("no result: \(answers)") }
            Expect.astronaut(result)
            var expected = lean
            expected.timings = Faceworker_V1_StageTimings()
            result.timings = Faceworker_V1_StageTimings()
            expected.sessionID = result.sessionID
            XCTAssertEqual(result, expected, "the faces, landmarks and classifications are the lean socket's")
        }
    }

    func testAFrameOfMegabytesIsAnswered() async throws {
        try await withServer { paths, _ in
            // 1920x1080 RGB, 6 MB: far more than HTTP/2's default 64 KiB window.
            let frame = Faceworker_V1_Frame.with {
                $0.raw.format = .rgb
                $0.raw.width = 1920
                $0.raw.height = 1080
                $0.raw.data = Data(repeating: 128, count: 1920 * 1080 * 3)
            }
            let answers = try await Self.session(paths.grpc, options: Expect.options(), frames: [frame])
            guard case .result(let result)? = answers.last else { return XCTFail("no result: \(answers)") }
            XCTAssertEqual(result.imageWidth, 1920)
            XCTAssertEqual(result.imageHeight, 1080)
        }
    }

    func testARefusedPeerGetsTheLeanSocketsStatusOnEveryCall() async throws {
        // A worker that admits only another user refuses this process, whichever door it uses.
        try await withServer(policy: PeerPolicy(workerUID: geteuid() &+ 1)) { paths, _ in
            let socket = try UnixSocket(path: paths.lean)
            guard case .error(let lean)? = try socket.receive()?.kind else { return XCTFail("the lean socket does not refuse") }
            XCTAssertEqual(lean.code, .permissionDenied)

            try await Self.withClient(paths.grpc) { client in
                do {
                    _ = try await client.ping(Faceworker_V1_PingRequest())
                    XCTFail("Ping went through")
                } catch let error as RPCError {
                    XCTAssertEqual(error.code, .permissionDenied)
                    XCTAssertEqual(error.message, lean.message)
                }
                do {
                    _ = try await Self.session(client, options: Expect.options(), frames: [])
                    XCTFail("a session opened")
                } catch let error as RPCError {
                    XCTAssertEqual(error.code, .permissionDenied)
                    XCTAssertEqual(error.message, lean.message)
                }
            }
        }
    }

    func testShutdownAnswersEveryFrameAStreamSentThenEndsItWithUnavailable() async throws {
        try await withServer { paths, group in
            let frames = try TestPaths.videoFrames().prefix(8).enumerated().map { Self.frame($1, timestampMs: Int64($0) * 33) }
            let (written, allWritten) = AsyncStream<Never>.makeStream()
            // Never finished while the call runs: the writer waits for the call's end to cancel it.
            let (callEnd, endOfTest) = AsyncStream<Never>.makeStream()
            defer { endOfTest.finish() }
            let answers = try await Self.withClient(paths.grpc) { client in
                try await client.session { writer in
                    defer { allWritten.finish() }
                    try await writer.write(.with { $0.open.options = Expect.options(.video) })
                    for frame in frames { try await writer.write(.with { $0.frame = frame }) }
                    allWritten.finish()
                    // The stream stays open: the worker, not the client, ends it.
                    for await _ in callEnd {}
                } onResponse: { response in
                    var kinds: [Faceworker_V1_SessionResponse.OneOf_Kind] = []
                    do {
                        for try await message in response.messages {
                            kinds.append(try XCTUnwrap(message.kind))
                            // Every frame written and the first answered: the others are in flight when the worker stops.
                            if kinds.count == 2 {
                                for await _ in written {}
                                await group.triggerGracefulShutdown()
                            }
                        }
                        XCTFail("the stream ended without a status")
                    } catch let error as RPCError {
                        XCTAssertEqual(error.code, .unavailable, error.message)
                        XCTAssertTrue(error.message.contains("shutting down"), error.message)
                    }
                    return kinds
                }
            }
            let results = answers.filter { if case .result = $0 { true } else { false } }
            XCTAssertEqual(results.count, frames.count, "every frame sent before the shutdown is answered: \(answers)")
        }
    }

    func testCancellingAStreamClosesItsSession() async throws {
        try await withServer { paths, _ in
            try await Self.withClient(paths.grpc) { client in
                // Never finished while the call runs: the writer waits for the call's end to cancel it.
                let (callEnd, endOfTest) = AsyncStream<Never>.makeStream()
                defer { endOfTest.finish() }
                let opened = try await client.session { writer in
                    try await writer.write(.with { $0.open.options = Expect.options(.video) })
                    for await _ in callEnd {}
                } onResponse: { response in
                    for try await message in response.messages {
                        if case .opened = message.kind { return true }
                    }
                    return false
                }
                XCTAssertTrue(opened)
                let connections = try await client.getStats(Faceworker_V1_GetStatsRequest()).connections
                XCTAssertEqual(connections, 1, "GetStats counts the gRPC door's connection")
                // Returning from onResponse cancelled the call.
                let deadline = ContinuousClock.now + .seconds(10)
                while try await client.getStats(Faceworker_V1_GetStatsRequest()).sessions != 0 {
                    guard ContinuousClock.now < deadline else { return XCTFail("the session outlived its stream") }
                    try await Task.sleep(for: .milliseconds(20))
                }
            }
        }
    }

    // MARK: - Support

    private struct Paths {
        var lean: String
        var grpc: String
    }

    private static let quiet = Logger(label: "face-worker") { _ in SwiftLogNoOpLogHandler() }

    /// Runs `body` against a worker serving both doors, then stops it (unless
    /// `body` did).
    private func withServer(policy: PeerPolicy? = nil, _ body: (Paths, ServiceGroup) async throws -> Void) async throws {
        let directory = try WorkerProcess.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let paths = Paths(lean: "\(directory)/worker.sock", grpc: "\(directory)/grpc.sock")
        var configuration = WorkerConfiguration(socketPath: paths.lean, modelsDirectory: TestPaths.models)
        configuration.grpcSocketPath = paths.grpc
        configuration.inferenceThreads = 1
        if let policy { configuration.peerPolicy = policy }
        let group = ServiceGroup(services: [FaceWorkerServer(configuration: configuration, logger: Self.quiet)], logger: Self.quiet)
        let running = Task { try await group.run() }
        let deadline = ContinuousClock.now + .seconds(60)
        while !(UnixSocket.accepts(paths.lean) && FileManager.default.fileExists(atPath: paths.grpc)) {
            guard ContinuousClock.now < deadline else {
                running.cancel()
                return XCTFail("the worker did not start")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        do {
            try await body(paths, group)
        } catch {
            await group.triggerGracefulShutdown()
            _ = try? await running.value
            throw error
        }
        await group.triggerGracefulShutdown()
        try await running.value
    }

    private static func withClient<Result: Sendable>(
        _ path: String, _ body: (Faceworker_V1_FaceWorker.Client<HTTP2ClientTransport.Posix>) async throws -> Result
    ) async throws -> Result {
        try await withGRPCClient(transport: .http2NIOPosix(target: .unixDomainSocket(path: path), transportSecurity: .plaintext)) { client in
            try await body(Faceworker_V1_FaceWorker.Client(wrapping: client))
        }
    }

    /// A Session stream that opens with `options`, sends `frames` and ends its
    /// side; the answers it got.
    private static func session(_ path: String, options: Faceworker_V1_SessionOptions, frames: [Faceworker_V1_Frame]) async throws
        -> [Faceworker_V1_SessionResponse.OneOf_Kind] {
        try await withClient(path) { client in try await session(client, options: options, frames: frames) }
    }

    private static func session(_ client: Faceworker_V1_FaceWorker.Client<HTTP2ClientTransport.Posix>, options: Faceworker_V1_SessionOptions,
                                frames: [Faceworker_V1_Frame]) async throws -> [Faceworker_V1_SessionResponse.OneOf_Kind] {
        try await client.session { writer in
            try await writer.write(.with { $0.open.options = options })
            for frame in frames { try await writer.write(.with { $0.frame = frame }) }
        } onResponse: { response in
            var kinds: [Faceworker_V1_SessionResponse.OneOf_Kind] = []
            for try await message in response.messages {
                kinds.append(try XCTUnwrap(message.kind))
            }
            return kinds
        }
    }

    private static func frame(_ jpeg: Data, timestampMs: Int64) -> Faceworker_V1_Frame {
        .with {
            $0.jpeg = jpeg
            $0.timestampMs = timestampMs
        }
    }
}
