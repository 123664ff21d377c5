@testable import FaceDetection
import FaceWorkerClient
import FaceWorkerGRPC
import FaceWorkerProtocol
import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2Posix
import WorkerCoreTesting
import XCTest

/// The metrics endpoint an operator's Prometheus scrapes: what it reports and
/// that its counts follow the frames, in-process on the real models; over
/// both kinds of address, and counting the gRPC door's frames too, on the
/// worker's binary.
final class MetricsTests: InProcessModelTestCase {
    private static let stageSeconds = "faceworker_frame_stage_duration_seconds"
    private static let stages = ["queue", "decode", "detect", "landmarks", "total"]

    func testTheExpositionFollowsFramesErrorsAndConnections() async throws {
        let worker = try startInProcessWorker()
        let text = worker.exposition()
        XCTAssertTrue(text.hasSuffix("\n"))
        XCTAssertTrue(text.contains("# HELP faceworker_frames_total "))
        let before = MetricSamples(text)
        XCTAssertEqual(before.types["faceworker_frames_total"], "counter")
        XCTAssertEqual(before.types["faceworker_frames_dropped_total"], "counter")
        XCTAssertEqual(before.types["faceworker_errors_total"], "counter")
        XCTAssertEqual(before.types[Self.stageSeconds], "histogram")
        for gauge in ["faceworker_connections", "faceworker_sessions", "faceworker_queued_frames", "faceworker_resident_memory_bytes",
                      "faceworker_subscriptions", "faceworker_shared_buffers", "faceworker_shared_memory_mapped_bytes", "faceworker_model_info"] {
            XCTAssertEqual(before.types[gauge], "gauge", gauge)
        }
        XCTAssertEqual(before.value("faceworker_frames_total", ["outcome": "processed"]), 0)
        XCTAssertGreaterThan(try XCTUnwrap(before.value("faceworker_resident_memory_bytes")), Double(10 << 20), "the models alone take megabytes")
        // One series per file of the manifest (the Face Landmarker's bundle included), labelled
        // with the checksum make models verified.
        let manifest = try ModelManifest.load(directory: TestPaths.models)
        for file in manifest.files {
            XCTAssertEqual(before.value("faceworker_model_info", ["name": file.name, "sha256": file.sha256]), 1, file.name)
        }
        XCTAssertEqual(before.all("faceworker_model_info").count, manifest.files.count)

        let client = try await worker.connect()
        let session = try await client.open(Expect.options(.image) { $0.landmarkMode = .all })
        for _ in 0..<3 { _ = try await client.process(.jpeg(try TestPaths.jpeg("astronaut.jpg")), in: session) }
        _ = try await client.refusal(of: .jpeg(Data([0xFF, 0xD8, 0x00])), in: session)
        _ = try await client.refusedOpen(Expect.options(.image) { $0.numFaces = 0 })
        let after = MetricSamples(worker.exposition())

        XCTAssertEqual(after.value("faceworker_frames_total", ["outcome": "processed"]), 3)
        XCTAssertEqual(after.value("faceworker_frames_total", ["outcome": "failed"]), 1)
        XCTAssertEqual(after.value("faceworker_frames_total", ["outcome": "dropped"]), 0)
        XCTAssertEqual(after.value("faceworker_errors_total", ["code": "INVALID_ARGUMENT"]), 2, "the damaged JPEG and the options")
        XCTAssertEqual(after.value("faceworker_errors_total", ["code": "NOT_FOUND"]), 0)
        XCTAssertEqual(after.value("faceworker_connections"), 1)
        XCTAssertEqual(after.value("faceworker_sessions"), 1)
        XCTAssertEqual(after.value("faceworker_queued_frames"), 0)
        for stage in Self.stages {
            let labels = ["mode": "image", "stage": stage]
            XCTAssertEqual(after.value(Self.stageSeconds + "_count", labels), 3, stage)
            XCTAssertEqual(after.value(Self.stageSeconds + "_bucket", labels.merging(["le": "+Inf"]) { $1 }), 3, stage)
            XCTAssertEqual(after.value(Self.stageSeconds + "_count", ["mode": "video", "stage": stage]), 0, stage)
        }
        let decode = try XCTUnwrap(after.value(Self.stageSeconds + "_sum", ["mode": "image", "stage": "decode"]))
        let landmarks = try XCTUnwrap(after.value(Self.stageSeconds + "_sum", ["mode": "image", "stage": "landmarks"]))
        let total = try XCTUnwrap(after.value(Self.stageSeconds + "_sum", ["mode": "image", "stage": "total"]))
        XCTAssertGreaterThan(decode, 0)
        XCTAssertGreaterThan(landmarks, 0)
        XCTAssertGreaterThan(total, decode + landmarks)
        XCTAssertLessThan(total, 30, "seconds, not microseconds")
        let buckets = after.all(Self.stageSeconds + "_bucket").filter { $0.labels["mode"] == "image" && $0.labels["stage"] == "total" }
        XCTAssertEqual(buckets.map(\.labels["le"]), ["0.0001", "0.00025", "0.0005", "0.001", "0.0025", "0.005", "0.01", "0.025", "0.05", "0.1",
                                                     "0.25", "0.5", "1.0", "+Inf"])
        XCTAssertEqual(buckets.map(\.value), buckets.map(\.value).sorted(), "buckets are cumulative")
    }

    /// The live stream's first frame is held at the gate while the others
    /// arrive, so each but the last replaces the one waiting before it.
    func testVideoFramesAndLiveStreamDropsAreCountedByModeAndReason() async throws {
        let gate = FrameGate()
        let worker = try startInProcessWorker(gate: gate)
        let client = try await worker.connect()
        let frames = try TestPaths.videoFrames()
        let live = try await client.open(Expect.options(.liveStream))
        var sent: [UInt64] = []
        for (index, jpeg) in frames.enumerated() {
            sent.append(try await client.send { .processFrame(callID: $0, session: live, .jpeg(jpeg, timestampMs: Int64(index) * 33)) })
            if index == 0 { await gate.waitForArrivals(1) }
        }
        gate.open()
        var replaced: [UInt64] = []
        var processed = 0
        // Each frame gets one answer, replaced or not.
        for _ in frames {
            let answer = try await client.receive()
            switch answer.kind {
            case .frameDropped(let notice):
                XCTAssertEqual(notice.reason, .replaced)
                replaced.append(answer.callID)
            case .frameResult:
                processed += 1
            default:
                XCTFail("\(answer)")
            }
        }
        XCTAssertEqual(replaced, Array(sent.dropFirst().dropLast()), "every frame but the running one and the last was replaced")
        XCTAssertEqual(processed, 2)
        let video = try await client.open(Expect.options(.video))
        for (index, jpeg) in frames.prefix(4).enumerated() {
            _ = try await client.process(.jpeg(jpeg, timestampMs: Int64(index) * 33), in: video)
        }
        // With nothing waiting, neither drops a frame.
        let reset = try await client.call { callID in
            var reset = Faceworker_V1_ClientMessage()
            reset.callID = callID
            reset.resetSession.sessionID = video
            return reset
        }
        let close = try await client.call { callID in
            var close = Faceworker_V1_ClientMessage()
            close.callID = callID
            close.closeSession.sessionID = live
            return close
        }
        guard case .closeSession = close.kind, case .resetSession = reset.kind else { return XCTFail("\(reset), \(close)") }

        let scrape = MetricSamples(worker.exposition())
        XCTAssertEqual(scrape.value("faceworker_frames_total", ["outcome": "processed"]), Double(4 + processed))
        XCTAssertEqual(scrape.value("faceworker_frames_total", ["outcome": "dropped"]), Double(replaced.count))
        XCTAssertEqual(scrape.value("faceworker_frames_dropped_total", ["reason": "replaced"]), Double(replaced.count))
        XCTAssertEqual(scrape.value("faceworker_frames_dropped_total", ["reason": "session_closed"]), 0)
        XCTAssertEqual(scrape.value("faceworker_frames_dropped_total", ["reason": "session_reset"]), 0)
        XCTAssertEqual(scrape.value(Self.stageSeconds + "_count", ["mode": "video", "stage": "detect"]), 4)
        XCTAssertEqual(scrape.value(Self.stageSeconds + "_count", ["mode": "live_stream", "stage": "detect"]), Double(processed))
        XCTAssertEqual(scrape.value(Self.stageSeconds + "_count", ["mode": "image", "stage": "detect"]), 0)
        XCTAssertEqual(scrape.value("faceworker_sessions"), 1, "the video session is still open")
    }

    /// Both doors count into the one endpoint, which only the composed
    /// worker has; over TCP, on the port its start line names.
    func testFramesThroughTheGRPCDoorAreCountedToo() async throws {
        let directory = try WorkerProcess.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let grpc = "\(directory)/grpc.sock"
        let (worker, metrics) = try await startMetricsWorker(tcp: true, ["--grpc-socket", grpc])
        XCTAssertTrue(FileManager.default.fileExists(atPath: grpc), worker.log)
        let frames = try TestPaths.videoFrames().prefix(3)
        let answers = try await withGRPCClient(transport: .http2NIOPosix(target: .unixDomainSocket(path: grpc), transportSecurity: .plaintext)) { client in
            try await Faceworker_V1_FaceWorker.Client(wrapping: client).session { writer in
                try await writer.write(.with { $0.open.options = Expect.options(.video) })
                for (index, jpeg) in frames.enumerated() {
                    try await writer.write(.with { request in
                        request.frame.jpeg = jpeg
                        request.frame.timestampMs = Int64(index) * 33
                    })
                }
            } onResponse: { response in
                var count = 0
                for try await _ in response.messages { count += 1 }
                return count
            }
        }
        XCTAssertEqual(answers, 1 + frames.count, "opened, then one result a frame")
        let scrape = try HTTPConnection.scrape(metrics)
        XCTAssertEqual(scrape.value("faceworker_frames_total", ["outcome": "processed"]), Double(frames.count))
        XCTAssertEqual(scrape.value(Self.stageSeconds + "_count", ["mode": "video", "stage": "total"]), Double(frames.count))
    }

    /// The socket file is the listener's, and its removal the process's exit.
    func testTheMetricsSocketGoesWithTheWorker() async throws {
        let (worker, metrics) = try await startMetricsWorker()
        guard case .unix(let path) = metrics else { return XCTFail("a Unix socket was asked for") }
        var status = stat()
        XCTAssertEqual(lstat(path, &status), 0)
        XCTAssertEqual(status.st_mode & 0o777, 0o600, "the socket mode the face socket has")
        XCTAssertEqual(try HTTPConnection.scrape(metrics).value("faceworker_frames_total", ["outcome": "processed"]), 0, "scraped over the socket")
        worker.signal(SIGTERM)
        let exit = await worker.waitForExit(timeout: .seconds(10))
        XCTAssertEqual(exit, 0)
        XCTAssertNotEqual(lstat(path, &status), 0, "the metrics socket is removed on exit")
    }
}
