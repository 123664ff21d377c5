import FaceWorkerProtocol
import Foundation
import XCTest

/// `--log-format json` writes one JSON object a line with the text format's
/// fields, and the log level comes from `--log-level` or, without it, from
/// `$FACEWORKER_LOG_LEVEL`, so an operator can set either.
final class LogFormatTests: XCTestCase {
    private func environment(_ assignments: String...) -> [String] {
        ["/usr/bin/env"] + assignments
    }

    private func records(_ log: String) throws -> [[String: Any]] {
        try log.split(separator: "\n").map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
            return try XCTUnwrap(object as? [String: Any], "not a JSON object: \(line)")
        }
    }

    func testJSONLogsAreOneObjectALineWithTheTextFormatsFields() async throws {
        let worker = try await startWorker(["--log-format", "json"], launcher: environment("FACEWORKER_LOG_LEVEL=debug"))
        let client = try await worker.connect()
        let session = try await client.openSession(options: Expect.options(.image), name: "logged \"session\" \\ é")
        _ = try await session.process(jpeg: try TestPaths.jpeg("astronaut.jpg"))
        try await session.close()
        await client.close()
        worker.signal(SIGTERM)
        let status = await worker.waitForExit(timeout: .seconds(10))
        XCTAssertEqual(status, 0)

        let records = try records(worker.log)
        for record in records {
            for field in ["timestamp", "level", "label", "source", "message"] {
                XCTAssertNotNil(record[field] as? String, "\(field) missing in \(record)")
            }
            XCTAssertTrue((record["timestamp"] as? String)?.hasSuffix("Z") == true, "a UTC timestamp: \(record)")
        }
        let started = try XCTUnwrap(records.first { $0["message"] as? String == "worker started" })
        XCTAssertEqual(started["level"] as? String, "info")
        XCTAssertEqual(started["socket"] as? String, worker.socketPath, "metadata keys are fields of their own")
        let opened = try XCTUnwrap(records.first { $0["message"] as? String == "session opened" })
        XCTAssertEqual(opened["name"] as? String, "logged \"session\" \\ é", "quotes, backslashes and UTF-8 survive escaping")
        let frame = try XCTUnwrap(records.first { $0["message"] as? String == "frame processed" }, "debug records are written at debug")
        XCTAssertEqual(frame["level"] as? String, "debug")
        XCTAssertEqual(frame["faces"] as? String, "1")
        XCTAssertNotNil(records.first { $0["message"] as? String == "worker stopped" })
    }

    func testTheLevelComesFromTheEnvironmentUnlessTheFlagGivesOne() async throws {
        let quiet = try await startWorker([], launcher: environment("FACEWORKER_LOG_LEVEL=warning"))
        let client = try await quiet.connect()
        _ = try await client.ping()
        await client.close()
        XCTAssertFalse(quiet.log.contains("worker started"), "info is below warning:\n\(quiet.log)")

        let flagged = try await startWorker(["--log-level", "info"], launcher: environment("FACEWORKER_LOG_LEVEL=warning"))
        let logged = await flagged.waitForLog("worker started")
        XCTAssertTrue(logged, "the flag wins over the environment:\n\(flagged.log)")
    }

    func testALogLevelTheEnvironmentMisspellsStopsTheStartWithTheReason() async throws {
        let worker = try WorkerProcess(launcher: environment("FACEWORKER_LOG_LEVEL=loud"))
        defer { worker.stop() }
        let status = await worker.waitForExit(timeout: .seconds(10))
        XCTAssertEqual(status, 64)
        XCTAssertTrue(worker.log.contains("$FACEWORKER_LOG_LEVEL is \"loud\", which is not a log level (trace, debug"), worker.log)
        XCTAssertFalse(UnixSocket.accepts(worker.socketPath))
    }
}
