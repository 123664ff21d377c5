import FaceWorkerGRPC
import FaceWorkerProtocol
import Foundation
import GRPCCore
import GRPCInProcessTransport
@testable import GRPCTransport
import Logging
import WorkerCore
import WorkerCoreTesting
import XCTest

/// The gRPC door's service in-process: grpc-swift's in-process transport in
/// front of the core on the fake pipeline. A Session stream opens its
/// session, gets each frame's result tagged with its timestamp and each
/// refusal as a status in the stream, which goes on.
final class SessionStreamTests: XCTestCase {
    private var inProcess: InProcessCore!

    override func setUp() {
        inProcess = InProcessCore()
    }

    override func tearDown() {
        inProcess.stop()
    }

    /// Runs `body` with a client of the service over an in-process transport.
    private func withService(_ body: @Sendable @escaping (Faceworker_V1_FaceWorker.Client<InProcessTransport.Client>) async throws -> Void)
        async throws {
        let transport = InProcessTransport()
        let service = FaceWorkerService(core: inProcess.core, streams: GRPCStreams(), connections: inProcess.connections,
                                        logger: Logger(label: "grpc-in-process") { _ in SwiftLogNoOpLogHandler() })
        try await withGRPCServer(transport: transport.server, services: [service]) { _ in
            try await withGRPCClient(transport: transport.client) { client in
                try await body(Faceworker_V1_FaceWorker.Client(wrapping: client))
            }
        }
    }

    private static func frame(_ timestampMs: Int64, width: UInt32 = 4, height: UInt32 = 2) -> Faceworker_V1_SessionRequest {
        var frame = Faceworker_V1_Frame()
        frame.raw.format = .rgb
        frame.raw.width = width
        frame.raw.height = height
        frame.raw.rowStride = width * 3
        frame.raw.data = Data(count: Int(width * height * 3))
        frame.timestampMs = timestampMs
        var request = Faceworker_V1_SessionRequest()
        request.frame = frame
        return request
    }

    private static func open(_ mode: Faceworker_V1_RunningMode) -> Faceworker_V1_SessionRequest {
        var request = Faceworker_V1_SessionRequest()
        request.open.options.runningMode = mode
        return request
    }

    /// Sends `requests` on one Session stream, ends it, and returns every response.
    private func session(_ requests: [Faceworker_V1_SessionRequest]) async throws -> [Faceworker_V1_SessionResponse] {
        let collected = CollectedResponses()
        try await withService { service in
            try await service.session(requestProducer: { writer in
                try await writer.write(contentsOf: requests)
            }, onResponse: { response in
                for try await message in response.messages { await collected.append(message) }
            })
        }
        return await collected.all
    }

    func testAStreamOpensItsSessionAndGetsEachFramesResultInOrder() async throws {
        let responses = try await session([Self.open(.video), Self.frame(10), Self.frame(20, width: 6, height: 4)])
        guard responses.count == 3, case .opened(let opened) = responses[0].kind else { return XCTFail("\(responses)") }
        XCTAssertGreaterThan(opened.sessionID, 0)
        XCTAssertEqual(opened.options.runningMode, .video)
        let results = responses.dropFirst().compactMap { response -> Faceworker_V1_FrameResult? in
            guard case .result(let result) = response.kind else { return nil }
            return result
        }
        XCTAssertEqual(results.map(\.timestampMs), [10, 20])
        XCTAssertEqual(results.map(\.imageWidth), [4, 6])
        XCTAssertEqual(results.map { $0.faces.first?.score }, [10, 20], "each frame's own result")
    }

    func testARefusedFrameIsAStatusInTheStreamAndTheStreamGoesOn() async throws {
        let responses = try await session([Self.open(.video), Self.frame(10), Self.frame(10), Self.frame(11)])
        XCTAssertEqual(responses.count, 4, "\(responses)")
        guard responses.count == 4, case .error(let refusal) = responses[2].kind else { return XCTFail("\(responses)") }
        XCTAssertEqual(refusal.code, .invalidArgument)
        XCTAssertTrue(refusal.message.contains("must increase"), refusal.message)
        guard case .result(let later) = responses[3].kind else { return XCTFail("\(responses[3])") }
        XCTAssertEqual(later.timestampMs, 11)
    }

    func testAFrameBeforeTheOpenOrBadOptionsEndTheStreamWithAStatusSayingWhy() async throws {
        do {
            _ = try await session([Self.frame(1)])
            XCTFail("a frame before the open is refused")
        } catch let error as RPCError {
            XCTAssertEqual(error.code, .failedPrecondition)
            XCTAssertTrue(error.message.contains("open"), error.message)
        }
        var bad = Self.open(.image)
        bad.open.options.numFaces = 0
        do {
            _ = try await session([bad])
            XCTFail("num_faces 0 is refused")
        } catch let error as RPCError {
            XCTAssertEqual(error.code, .invalidArgument)
            XCTAssertTrue(error.message.contains("num_faces"), error.message)
        }
    }

    func testPingAndStatsAreAnswered() async throws {
        try await withService { service in
            var ping = Faceworker_V1_PingRequest()
            ping.payload = Data([7, 8])
            let pong = try await service.ping(ping)
            XCTAssertEqual(pong.payload, Data([7, 8]))
            let stats = try await service.getStats(Faceworker_V1_GetStatsRequest())
            XCTAssertEqual(stats.inferenceThreads, 2)
            XCTAssertEqual(stats.sessions, 0)
        }
    }
}

/// Responses gathered from a stream's handler, which runs concurrently with the test.
private actor CollectedResponses {
    private(set) var all: [Faceworker_V1_SessionResponse] = []

    func append(_ response: Faceworker_V1_SessionResponse) {
        all.append(response)
    }
}
