import FaceWorkerClient
import FaceWorkerProtocol
import Foundation
import Glibc
import XCTest

/// Starting, stopping and the socket file: what a user relies on when running
/// the worker as a service.
final class LifecycleTests: XCTestCase {
    func testSIGTERMAnswersTheFramesInFlightRemovesTheSocketAndExitsZero() async throws {
        // The drain's deadline is for clients that do not read; this one reads,
        // so a machine slow enough to take longer for eight frames must not cut it.
        let worker = try await startWorker(["--threads", "1", "--drain-timeout-ms", "60000"])
        let socket = try UnixSocket(path: worker.socketPath)
        // Landmarks make each frame slow enough that most are still waiting at SIGTERM.
        let sessionID = try socket.openSession(Expect.options(.video) {
            $0.trackingEnabled = true
            $0.outputFaceMesh = true
        })

        // Eight frames, then a ping: once the ping is answered, the worker has
        // read every frame, so all eight are in flight.
        try socket.send(all: try TestPaths.videoFrames().prefix(8).enumerated().map { index, jpeg in
            .processFrame(callID: UInt64(10 + index), session: sessionID, .jpeg(jpeg, timestampMs: Int64(index)))
        } + [.ping(callID: 2)])

        var results: [Int64] = []
        while let answer = try socket.receive(), answer.callID != 2 {
            results.append(answer.frameResult.timestampMs)
        }
        worker.signal(SIGTERM)
        while let answer = try socket.receive() {
            XCTAssertEqual(answer.frameResult.sessionID, sessionID, "\(answer)")
            results.append(answer.frameResult.timestampMs)
        }
        // The deadline only stops a hung test; the exit itself is the event.
        let status = await worker.waitForExit(timeout: .seconds(60))
        XCTAssertEqual(status, 0, worker.log)
        XCTAssertEqual(results, Array(0..<8), "every frame in flight is answered, in order, before the connection closes")
        XCTAssertFalse(FileManager.default.fileExists(atPath: worker.socketPath), "the socket is removed")
        XCTAssertTrue(worker.log.contains("shutting down"))
    }

    func testSIGINTStopsTheWorkerToo() async throws {
        let worker = try await startWorker()
        worker.signal(SIGINT)
        let status = await worker.waitForExit(timeout: .seconds(60))
        XCTAssertEqual(status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: worker.socketPath))
    }

    func testAClientKilledMidStreamHasItsSessionsFreed() async throws {
        let worker = try await startWorker()
        let observer = try await worker.connect()
        let script = """
            import socket, struct, sys, time
            def varint(n):
                out = b""
                while True:
                    b = n & 0x7F; n >>= 7
                    if n: out += bytes([b | 0x80])
                    else: return out + bytes([b])
            def field(number, payload): return varint(number << 3 | 2) + varint(len(payload)) + payload
            def frame(payload): return struct.pack(">BI", 0, len(payload)) + payload
            s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
            jpeg = open(sys.argv[2], "rb").read()
            # OpenSession twice (LIVE_STREAM, so frames never wait for answers).
            for call in (1, 2):
                s.sendall(frame(varint(8) + varint(call) + field(2, field(1, b"\\x08\\x02"))))
            sessions = []
            while len(sessions) < 2:
                header = s.recv(5, socket.MSG_WAITALL); body = s.recv(struct.unpack(">I", header[1:])[0], socket.MSG_WAITALL)
                # WorkerMessage: call_id, then open_session (field 2) whose field 1 is the session id.
                inner = body[body.index(b"\\x12") + 2:]
                sessions.append(inner[1])
            print("open", flush=True)
            t = 1
            while True:
                for session in sessions:
                    request = varint(8) + varint(session) + field(2, field(1, jpeg) + varint(32) + varint(t))
                    s.sendall(frame(varint(8) + varint(100 + t) + field(3, request)))
                t += 1
                time.sleep(0.005)
            """
        // The kill lands while the child sends, often inside one of its 53 KB frames.
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        child.arguments = ["python3", "-c", script, worker.socketPath, TestPaths.fixtures.appendingPathComponent("astronaut.jpg").path]
        let output = Pipe()
        child.standardOutput = output
        try child.run()
        var said = Data()
        while !said.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            said.append(chunk)
        }
        XCTAssertEqual(String(decoding: said, as: UTF8.self), "open\n", "the child opened its sessions")
        // Killed once its frames are being processed, so it dies mid-stream.
        var busy = try await observer.stats()
        let processing = ContinuousClock.now + .seconds(30)
        while busy.framesProcessed == 0, ContinuousClock.now < processing {
            try await Task.sleep(for: .milliseconds(10))
            busy = try await observer.stats()
        }
        XCTAssertGreaterThan(busy.framesProcessed, 0, "the child's frames are processed")
        XCTAssertEqual(busy.sessions, 2)
        XCTAssertEqual(busy.connections, 2)
        kill(child.processIdentifier, SIGKILL)
        child.waitUntilExit()

        var stats = try await observer.stats()
        let deadline = ContinuousClock.now + .seconds(5)
        while stats.sessions != 0 || stats.connections != 1, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
            stats = try await observer.stats()
        }
        XCTAssertEqual(stats.sessions, 0, "the killed client's sessions are freed")
        XCTAssertEqual(stats.connections, 1)
        XCTAssertGreaterThan(stats.framesProcessed, 0)
        let session = try await observer.openSession()
        try await Expect.stillServes(session)
    }

    func testAClientLeavingMidMessageHasItsSessionsFreed() async throws {
        let worker = try await startWorker()
        let observer = try await worker.connect()
        do {
            let socket = try UnixSocket(path: worker.socketPath)
            var open = Faceworker_V1_ClientMessage()
            open.callID = 1
            open.openSession = Faceworker_V1_OpenSessionRequest()
            try socket.send(open)
            XCTAssertEqual(try socket.receive()?.callID, 1)
            // The header promises 1000 bytes; only 10 come before the socket closes.
            try socket.send([0, 0, 0, 0x03, 0xE8] + [UInt8](repeating: 0, count: 10))
        }
        var stats = try await observer.stats()
        let deadline = ContinuousClock.now + .seconds(5)
        while stats.sessions != 0, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
            stats = try await observer.stats()
        }
        XCTAssertEqual(stats.sessions, 0)
        XCTAssertEqual(stats.connections, 1)
    }

    func testRefusesToStartWhileAWorkerAnswersOnTheSocket() async throws {
        let first = try await startWorker()
        let second = try WorkerProcess(socketPath: first.socketPath, directory: first.directory)
        let status = await second.waitForExit(timeout: .seconds(30))
        XCTAssertNotNil(status)
        XCTAssertNotEqual(status, 0)
        XCTAssertTrue(second.log.contains("already answers"), second.log)
        let client = try await first.connect()
        let session = try await client.openSession()
        try await Expect.stillServes(session)
    }

    func testRemovesAStaleSocketLeftByAWorkerThatDied() async throws {
        let directory = try WorkerProcess.makeTemporaryDirectory()
        let crashed = try await WorkerProcess.start(directory: directory)
        crashed.signal(SIGKILL)
        _ = await crashed.waitForExit(timeout: .seconds(60))
        XCTAssertTrue(FileManager.default.fileExists(atPath: crashed.socketPath), "a killed worker leaves its socket")
        let worker = try await startWorker(directory: directory)
        let logged = await worker.waitForLog("stale")
        XCTAssertTrue(logged, worker.log)
        let client = try await worker.connect()
        try await client.ping()
    }

    func testRefusesAPathThatIsNotASocket() async throws {
        let directory = try WorkerProcess.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = "\(directory)/worker.sock"
        try Data("precious".utf8).write(to: URL(fileURLWithPath: path))
        let worker = try WorkerProcess(socketPath: path, directory: directory)
        let status = await worker.waitForExit(timeout: .seconds(30))
        XCTAssertNotEqual(status, 0)
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "precious", "the file is left alone")
    }

    func testTheSocketIsOnlyForItsOwnerByDefault() async throws {
        let worker = try await startWorker()
        XCTAssertEqual(try Self.mode(of: worker.socketPath), 0o600)
        let shared = try await startWorker(["--socket-mode", "0660"])
        XCTAssertEqual(try Self.mode(of: shared.socketPath), 0o660)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: worker.directory).filter { $0.hasPrefix(".faceworker") }
        XCTAssertEqual(leftovers, [], "the private directory used to bind is removed")
    }

    func testAPeerOfAnotherUserIsRefusedUnlessAllowed() async throws {
        guard geteuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
            throw XCTSkip("needs root and setpriv to run the worker as another user; PeerPolicyTests cover the decision")
        }
        // The worker runs as nobody; this test process (root) is then a stranger to it.
        let asNobody = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
        let directory = try WorkerProcess.makeTemporaryDirectory()
        chown(directory, 65534, 65534)
        let worker = try await startWorker([], launcher: asNobody, directory: directory)
        let socket = try UnixSocket(path: worker.socketPath)
        let refusal = try XCTUnwrap(try socket.receive())
        XCTAssertEqual(refusal.callID, 0)
        XCTAssertEqual(refusal.error.code, .permissionDenied)
        XCTAssertNil(try socket.receive(), "the worker hangs up")
        let logged = await worker.waitForLog("connection refused")
        XCTAssertTrue(logged, worker.log)

        for allowance in [["--allow-uid", "0"], ["--allow-group", "root"]] {
            let other = try WorkerProcess.makeTemporaryDirectory()
            chown(other, 65534, 65534)
            let allowing = try await startWorker(allowance, launcher: asNobody, directory: other)
            let client = try await allowing.connect()
            try await client.ping()
        }
    }

    private static func mode(of path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.posixPermissions] as? Int) ?? -1
    }
}
