import FaceWorkerClient
import FaceWorkerProtocol
import Foundation
import Glibc
import XCTest

/// What a metrics client that is not a scraper gets from the worker's real
/// listener: the door for a huge, slow or crowding one, and that the
/// face-detection clients do not notice any of it; each needs the listening
/// socket, its timer or its thread. The status a wrong request gets is the
/// handler's, tested on a channel (MetricsHandlerChannelTests).
final class MetricsBadInputTests: XCTestCase {
    func testAHugeRequestIsCutOffUnread() async throws {
        let (_, metrics) = try await startMetricsWorker(tcp: true, ["--metrics-request-timeout-ms", "600000"])
        let connection = try HTTPConnection(metrics)
        var sent = 0
        let chunk = Array(repeating: UInt8(ascii: "x"), count: 64 << 10)
        // The worker stops reading past the limit, so the writes stall or fail long before 64 MiB.
        while sent < 64 << 20, connection.sendWithin(chunk, .seconds(1)) {
            sent += chunk.count
        }
        XCTAssertLessThan(sent, 64 << 20, "the worker does not read a huge request")
        XCTAssertEqual(connection.readToEnd(timeout: .seconds(30)).ending, .closed)
    }

    func testAClientThatSendsNothingOrDribblesIsCutOff() async throws {
        let (_, metrics) = try await startMetricsWorker(["--metrics-request-timeout-ms", "300"])
        let silent = try HTTPConnection(metrics)
        let (bytes, ending) = silent.readToEnd(timeout: .seconds(30))
        XCTAssertEqual(ending, .closed)
        XCTAssertTrue(bytes.isEmpty, "nothing is answered to a request that never came")

        let dribbling = try HTTPConnection(metrics)
        let request = Array("GET /metrics HTTP/1.1\r\nHost: localhost\r\nUser-Agent: slow\r\n\r\n".utf8)
        var index = 0
        // A byte every 100 ms: the whole request would take about 6 s, twenty times the timeout.
        while index < request.count - 1, dribbling.send([request[index]]) {
            index += 1
            try await Task.sleep(for: .milliseconds(100))
        }
        XCTAssertLessThan(index, request.count - 1, "the worker closed the connection before the request was whole")
        XCTAssertEqual(try HTTPConnection.scrape(metrics).value("faceworker_frames_total", ["outcome": "processed"]), 0, "the endpoint still serves")
    }

    func testConnectionsPastTheLimitAreClosedAndTheEndpointRecovers() async throws {
        let (_, metrics) = try await startMetricsWorker(["--metrics-request-timeout-ms", "60000"])
        var held: [HTTPConnection] = []
        for _ in 0..<16 {
            let connection = try HTTPConnection(metrics)
            connection.send("GET /metr")
            held.append(connection)
        }
        // Connections are accepted in the order they came, so this one finds the 16 admitted.
        let extra = try HTTPConnection(metrics)
        let (bytes, ending) = extra.readToEnd(timeout: .seconds(30))
        XCTAssertEqual(ending, .closed, "a 17th connection is closed")
        XCTAssertTrue(bytes.isEmpty)

        held.removeLast(4)
        let scrape = try await eventually { try HTTPConnection.scrape(metrics) }
        XCTAssertNotNil(scrape.value("faceworker_connections"))
        for connection in held {
            connection.send("ics HTTP/1.1\r\n\r\n")
            let answer = try XCTUnwrap(HTTPAnswer(connection.readToEnd().bytes))
            XCTAssertEqual(answer.status, 200, "a held connection is served when its request completes")
        }
    }

    func testMetricsClientsCannotDisturbFaceClients() async throws {
        let (worker, metrics) = try await startMetricsWorker(["--metrics-request-timeout-ms", "500"])
        let client = try await worker.connect()
        let session = try await client.openSession(options: Expect.options(.video))
        let frames = try TestPaths.videoFrames()
        let abuse = Task.detached {
            // Waves of clients that crowd, stall, dribble, overflow and speak garbage, until cancelled.
            var wave = 0
            while !Task.isCancelled {
                var open: [HTTPConnection] = []
                for index in 0..<40 {
                    guard let connection = try? HTTPConnection(metrics) else { continue }
                    switch index % 4 {
                    case 0: break
                    case 1: connection.send("GET /met")
                    case 2: connection.send(String(repeating: "A", count: 16 << 10))
                    default: connection.send("\u{0}\u{1}\u{2} nonsense\r\n\r\n")
                    }
                    open.append(connection)
                }
                wave += 1
                try? await Task.sleep(for: .milliseconds(50))
            }
            return wave
        }
        for (index, jpeg) in frames.enumerated() {
            let result = try await session.process(jpeg: jpeg, timestampMs: Int64(index) * 33)
            XCTAssertEqual(result.faces.count, 1, "frame \(index)")
        }
        abuse.cancel()
        let waves = await abuse.value
        XCTAssertGreaterThan(waves, 0)
        let scrape = try await eventually { try HTTPConnection.scrape(metrics) }
        XCTAssertEqual(scrape.value("faceworker_frames_total", ["outcome": "processed"]), Double(frames.count))
        XCTAssertEqual(scrape.value("faceworker_frames_total", ["outcome": "failed"]), 0)
    }

    func testAnAddressThatCannotBeServedStopsTheStart() async throws {
        let directory = try WorkerProcess.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = "\(directory)/not-a-socket"
        XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: Data("keep me".utf8)))
        let (_, taken) = try await startMetricsWorker(tcp: true)
        guard case .tcp(let port) = taken else { return XCTFail("a TCP port was asked for") }
        let cases: [([String], String)] = [
            (["--metrics-listen", file], "exists and is not a socket"),
            (["--metrics-listen", "127.0.0.1:\(port)"], "cannot serve metrics on 127.0.0.1:\(port)"),
            (["--metrics-listen", "/" + String(repeating: "d", count: 120) + "/m.sock"], "must be 1 to 103 bytes long"),
            (["--metrics-listen", "9x"], "\"9x\" is not a TCP port"),
            (["--metrics-listen", "::1:9464"], "put an IPv6 host in brackets"),
        ]
        for (arguments, message) in cases {
            let worker = try WorkerProcess(arguments: arguments, socketPath: "\(directory)/worker.sock", directory: directory)
            let exit = await worker.waitForExit(timeout: .seconds(60))
            XCTAssertNotNil(exit, "\(arguments)")
            XCTAssertNotEqual(exit, 0, "\(arguments)")
            XCTAssertTrue(worker.log.contains(message), "\(arguments): \(worker.log)")
            XCTAssertFalse(UnixSocket.accepts("\(directory)/worker.sock"), "no face socket is left behind")
        }
        XCTAssertEqual(try String(contentsOfFile: file, encoding: .utf8), "keep me", "a file at the path is left alone")
    }

    /// Retries `attempt` for a few seconds: a connection the worker closed
    /// leaves the count of open ones a moment after the client sees it.
    private func eventually<T>(_ attempt: () throws -> T) async throws -> T {
        let deadline = ContinuousClock.now + .seconds(10)
        while true {
            do {
                return try attempt()
            } catch where ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(50))
            }
        }
    }
}
