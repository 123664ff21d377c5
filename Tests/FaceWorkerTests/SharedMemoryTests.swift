import FaceWorkerClient
import FaceWorkerProtocol
import Foundation
import Glibc
import Imaging
import XCTest

/// Frames through shared-memory buffers: the same results as the same bytes
/// in the message, and every bad buffer, handoff or region refused with a
/// clear status, while the connection and other sessions go on and nothing
/// stays mapped.
final class SharedMemoryTests: XCTestCase {
    /// A worker, two connections, and on each an image session known to work.
    private struct Setup {
        let worker: WorkerProcess
        let client: FaceWorkerClient
        let session: FaceWorkerSession
        let other: FaceWorkerClient
        let otherSession: FaceWorkerSession

        /// Both sessions still find the astronaut, and nothing is mapped any more.
        func stillServedWithNothingMapped(file: StaticString = #filePath, line: UInt = #line) async throws {
            try await Expect.stillServes(session, file: file, line: line)
            try await Expect.stillServes(otherSession, file: file, line: line)
            try await SharedMemorySupport.assertNothingMapped(worker, other, file: file, line: line)
        }
    }

    private func makeSetup(_ arguments: [String] = []) async throws -> Setup {
        let worker = try await startWorker(arguments)
        let client = try await worker.connect()
        let other = try await worker.connect()
        return Setup(worker: worker, client: client, session: try await client.openSession(options: Expect.options(.image)),
                     other: other, otherSession: try await other.openSession(options: Expect.options(.image)))
    }

    private func astronaut() throws -> [UInt8] {
        [UInt8](try TestPaths.jpeg("astronaut.jpg"))
    }

    func testASharedJPEGGivesTheResultOfTheSameBytesInTheMessage() async throws {
        let setup = try await makeSetup()
        let jpeg = try astronaut()
        let buffer = try await setup.client.registerBuffer(size: jpeg.count + 100)
        UnsafeMutableRawBufferPointer(rebasing: buffer.bytes[37...]).copyBytes(from: jpeg)
        let shared = try await setup.session.process(try buffer.jpegFrame(offset: 37, length: jpeg.count))
        let inline = try await setup.session.process(jpeg: Data(jpeg))
        Expect.astronaut(shared)
        XCTAssertEqual(shared.faces, inline.faces)
        let stats = try await setup.other.stats()
        XCTAssertEqual(stats.sharedBuffers, 1)
        XCTAssertEqual(stats.mappedBytes, UInt64(jpeg.count + 100))
        XCTAssertEqual(SharedMemorySupport.mappedMemfds(setup.worker).count, 1, "the worker maps the buffer once")
        try await buffer.unregister()
        try await setup.stillServedWithNothingMapped()
        XCTAssertTrue(setup.worker.log.contains("buffer registered"), "one log line per buffer registered")
        XCTAssertTrue(setup.worker.log.contains("buffer unregistered"), "one log line per buffer unregistered")
    }

    func testSharedRawFramesGiveTheResultsOfTheSameBytesInTheMessage() async throws {
        let setup = try await makeSetup()
        let image = try JPEGDecoder().decode(try astronaut(), maxPixels: 1 << 20)
        for format: Faceworker_V1_PixelFormat in [.rgb, .bgra, .gray8, .nv12, .nv21, .i420] {
            let raw = Faceworker_V1_RawImage(image, format: format, width: image.width, height: image.height, padding: 3)
            let offset = 11
            let buffer = try await setup.client.registerBuffer(size: offset + raw.data.count)
            UnsafeMutableRawBufferPointer(rebasing: buffer.bytes[offset...]).copyBytes(from: raw.data)
            let frame = try buffer.rawFrame(offset: offset, format: format, width: image.width, height: image.height, rowStride: Int(raw.rowStride))
            let shared = try await setup.session.process(frame)
            var inline = Faceworker_V1_Frame()
            inline.raw = raw
            let expected = try await setup.session.process(inline)
            XCTAssertEqual(shared.faces.count, 1, "\(format)")
            XCTAssertEqual(shared.faces, expected.faces, "\(format)")
            try await buffer.unregister()
        }
        try await setup.stillServedWithNothingMapped()
    }

    func testBadHandoffsAreRefusedAndNothingStaysMapped() async throws {
        let setup = try await makeSetup()
        func refused(_ descriptors: [Int32], token: [UInt8]? = nil, _ code: Faceworker_V1_Status.Code, _ message: String,
                     line: UInt = #line) async throws {
            let reservation = try await SharedMemorySupport.reserve(setup.client)
            let status = try SharedMemorySupport.refusedHandoff(reservation, token: token, descriptors: descriptors, line: line)
            XCTAssertEqual(status?.code, code, status?.message ?? "", line: line)
            XCTAssertTrue(status?.message.contains(message) ?? false, "\(status?.message ?? "") should say \(message)", line: line)
            try await setup.stillServedWithNothingMapped(line: line)
        }
        let unsealed = try SharedMemorySupport.memfd(size: 4096, sealed: false)
        try await refused([unsealed], .invalidArgument, "not sealed against shrinking (F_SEAL_SHRINK)")
        try await refused([unsealed], .invalidArgument, "F_ADD_SEALS")
        close(unsealed)
        var pipe: [Int32] = [0, 0]
        XCTAssertEqual(Glibc.pipe(&pipe), 0)
        try await refused([pipe[0]], .invalidArgument, "is a pipe, which is not a memfd")
        pipe.forEach { close($0) }
        let directory = open("/", O_RDONLY | O_DIRECTORY)
        try await refused([directory], .invalidArgument, "is a directory, which is not a memfd")
        close(directory)
        let empty = try SharedMemorySupport.memfd(size: 0)
        try await refused([empty], .invalidArgument, "the memfd is empty")
        close(empty)
        let first = try SharedMemorySupport.memfd(size: 4096), second = try SharedMemorySupport.memfd(size: 4096)
        try await refused([], .invalidArgument, "carried 0 descriptors")
        try await refused([first, second], .invalidArgument, "carried 2 descriptors")
        try await refused([first], token: [UInt8](repeating: 7, count: 16), .notFound, "unknown, already used or expired")
        try await refused([first], token: [1, 2, 3], .notFound, "unknown, already used or expired")

        // A token works once.
        let reservation = try await SharedMemorySupport.reserve(setup.client)
        let accepted = try BufferHandoffExchange.run(address: reservation.handoffAddress, token: [UInt8](reservation.token), descriptors: [first])
        XCTAssertEqual(accepted.bufferRegistered.bufferID, reservation.bufferID)
        XCTAssertEqual(accepted.bufferRegistered.sizeBytes, 4096)
        let again = try SharedMemorySupport.refusedHandoff(reservation, descriptors: [second])
        XCTAssertEqual(again?.code, .notFound)
        var unregister = Faceworker_V1_UnregisterBufferRequest()
        unregister.bufferID = reservation.bufferID
        _ = try await setup.client.call(.unregisterBuffer(unregister))
        let twice = await Expect.failure { try await setup.client.call(.unregisterBuffer(unregister)) }
        XCTAssertEqual(twice?.code, .notFound)
        XCTAssertEqual(twice?.message, "no buffer \(reservation.bufferID) is registered on this connection")
        close(first)
        close(second)
        try await setup.stillServedWithNothingMapped()
        XCTAssertTrue(setup.worker.log.contains("buffer refused"), "one log line per buffer refused")
    }

    func testAnExpiredTokenIsNotFound() async throws {
        let setup = try await makeSetup(["--handoff-token-lifetime-ms", "100"])
        let reservation = try await SharedMemorySupport.reserve(setup.client)
        // The token's lifetime began before its answer was sent, so it is over once as long again has passed here.
        try await Task.sleep(for: .milliseconds(100))
        let memfd = try SharedMemorySupport.memfd(size: 4096)
        defer { close(memfd) }
        let status = try SharedMemorySupport.refusedHandoff(reservation, descriptors: [memfd])
        XCTAssertEqual(status?.code, .notFound)
        XCTAssertTrue(status?.message.contains("expired") ?? false, status?.message ?? "")
        try await setup.stillServedWithNothingMapped()
    }

    func testAHandoffFromAnotherProcessIsRefused() async throws {
        let setup = try await makeSetup()
        let reservation = try await SharedMemorySupport.reserve(setup.client)
        // A second process (Python's socket.send_fds) brings the right token with its own sealed memfd.
        let script = """
            import fcntl, os, socket, struct, sys
            fd = os.memfd_create("faceworker-other", os.MFD_ALLOW_SEALING)
            os.ftruncate(fd, 4096)
            fcntl.fcntl(fd, fcntl.F_ADD_SEALS, fcntl.F_SEAL_SHRINK)
            s = socket.socket(socket.AF_UNIX)
            s.connect("\\0" + sys.argv[1][1:])
            socket.send_fds(s, [bytes.fromhex(sys.argv[2])], [fd])
            length = struct.unpack(">BI", s.recv(5, socket.MSG_WAITALL))[1]
            sys.stdout.buffer.write(s.recv(length, socket.MSG_WAITALL))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, reservation.handoffAddress, reservation.token.map { String(format: "%02x", $0) }.joined()]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let bytes = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let answer = try Faceworker_V1_WorkerMessage(serializedBytes: bytes)
        XCTAssertEqual(answer.error.code, .permissionDenied, "\(answer)")
        XCTAssertTrue(answer.error.message.contains("was reserved by process \(getpid())"), answer.error.message)
        try await setup.stillServedWithNothingMapped()
    }

    func testBadRegionsAreRefused() async throws {
        let setup = try await makeSetup()
        let jpeg = try astronaut()
        let buffer = try await setup.client.registerBuffer(size: jpeg.count)
        buffer.bytes.copyBytes(from: jpeg)
        let size = UInt64(jpeg.count)
        func refused(_ frame: Faceworker_V1_Frame, on client: FaceWorkerClient? = nil, session: UInt64? = nil,
                     _ code: Faceworker_V1_Status.Code, _ message: String, line: UInt = #line) async throws {
            var request = Faceworker_V1_ProcessFrameRequest()
            request.sessionID = session ?? setup.session.id
            request.frame = frame
            let error = await Expect.failure({ try await (client ?? setup.client).call(.processFrame(request)) }, line: line)
            XCTAssertEqual(error?.code, code, error?.message ?? "", line: line)
            XCTAssertTrue(error?.message.contains(message) ?? false, "\(error?.message ?? "") should say \(message)", line: line)
            try await Expect.stillServes(setup.session, line: line)
            try await Expect.stillServes(setup.otherSession, line: line)
        }
        func shared(_ offset: UInt64, _ length: UInt64, buffer id: UInt64 = buffer.id) -> Faceworker_V1_Frame {
            var frame = Faceworker_V1_Frame()
            frame.sharedJpeg = Faceworker_V1_BufferRegion(buffer: id, offset: offset, length: length)
            return frame
        }
        try await refused(shared(1, size), .outOfRange, "(offset 1, length \(size)) ends past buffer \(buffer.id), which holds \(size) bytes")
        try await refused(shared(UInt64.max, 2), .outOfRange, "(offset \(UInt64.max), length 2) ends past buffer")
        try await refused(shared(0, UInt64.max), .outOfRange, "(offset 0, length \(UInt64.max)) ends past buffer")
        try await refused(shared(0, 0), .invalidArgument, "shared_jpeg.length is 0")
        try await refused(shared(0, 16), .invalidArgument, "JPEG")
        try await refused(shared(0, size, buffer: buffer.id + 1000), .notFound, "no buffer \(buffer.id + 1000) is registered on this connection")
        // The buffer belongs to the first connection: the second cannot name it.
        try await refused(shared(0, size), on: setup.other, session: setup.otherSession.id, .notFound,
                          "no buffer \(buffer.id) is registered on this connection")

        var raw = try buffer.rawFrame(format: .rgb, width: 16, height: 16)
        raw.raw.rowStride = 47
        try await refused(raw, .invalidArgument, "stride")
        raw = try buffer.rawFrame(format: .nv12, width: 16, height: 16)
        raw.raw.region.length -= 1
        try await refused(raw, .invalidArgument, "wrong buffer size: expected 384 bytes, got 383")
        raw = try buffer.rawFrame(format: .rgb, width: 16, height: 16)
        raw.raw.data = Data([1, 2, 3])
        try await refused(raw, .invalidArgument, "raw has both data (3 bytes) and a region")
        raw.raw.data = Data()
        raw.raw.region.offset = size
        try await refused(raw, .outOfRange, "raw.region (offset \(size), length 768) ends past buffer")

        Expect.astronaut(try await setup.session.process(try buffer.jpegFrame(length: jpeg.count)))
        try await buffer.unregister()
        try await refused(shared(0, size), .notFound, "no buffer \(buffer.id) is registered on this connection")
        try await setup.stillServedWithNothingMapped()
    }

    func testBuffersPastTheConnectionsLimitsAreRefused() async throws {
        let setup = try await makeSetup(["--max-buffers-per-connection", "2", "--max-mapped-bytes-per-connection", "100000"])
        let first = try await setup.client.registerBuffer(size: 60000)
        // A reservation counts as a buffer until its handoff comes.
        let reserved = try await SharedMemorySupport.reserve(setup.client)
        let third = await Expect.failure { try await setup.client.registerBuffer(size: 10) }
        XCTAssertEqual(third?.code, .resourceExhausted)
        XCTAssertTrue(third?.message.contains("already has 2 buffers, registered or reserved") ?? false, third?.message ?? "")
        XCTAssertTrue(third?.message.contains("--max-buffers-per-connection") ?? false, third?.message ?? "")
        // Another connection has limits of its own.
        let elsewhere = try await setup.other.registerBuffer(size: 60000)

        let memfd = try SharedMemorySupport.memfd(size: 50000)
        defer { close(memfd) }
        let status = try SharedMemorySupport.refusedHandoff(reserved, descriptors: [memfd])
        XCTAssertEqual(status?.code, .resourceExhausted)
        XCTAssertTrue(status?.message.contains("bring this connection's mapped bytes to 110000, past the worker's limit of 100000 (--max-mapped-bytes-per-connection)") ?? false,
                      status?.message ?? "")
        // The refused handoff freed its reservation.
        let second = try await setup.client.registerBuffer(size: 40000)
        try await first.unregister()
        try await second.unregister()
        try await elsewhere.unregister()
        try await setup.stillServedWithNothingMapped()
    }

    func testUnregisteringWhileFramesAreInFlightStillAnswersThem() async throws {
        let setup = try await makeSetup()
        let socket = try UnixSocket(path: setup.worker.socketPath)
        let shared = try sharedJPEGFrames(3, on: socket)
        var last = shared.frame
        last.timestampMs = 3
        try socket.send(all: shared.calls + [.unregisterBuffer(callID: 20, buffer: shared.bufferID),
                                             .processFrame(callID: 13, session: shared.sessionID, last)])
        let bufferID = shared.bufferID
        var answers: [UInt64: Faceworker_V1_WorkerMessage] = [:]
        while answers.count < 5, let answer = try socket.receive() {
            answers[answer.callID] = answer
        }
        for callID: UInt64 in 10...12 {
            guard case .frameResult(let result)? = answers[callID]?.kind else {
                XCTFail("frame \(callID) was not answered with a result: \(String(describing: answers[callID]))")
                continue
            }
            Expect.astronaut(result)
        }
        XCTAssertEqual(answers[20]?.unregisterBuffer.bufferID, bufferID)
        XCTAssertEqual(answers[13]?.error.code, .notFound)
        XCTAssertEqual(answers[13]?.error.message, "no buffer \(bufferID) is registered on this connection (shared_jpeg.buffer_id); register it with RegisterBuffer on this connection first")
        try await setup.stillServedWithNothingMapped()
    }

    func testAClientThatDiesWithFramesInFlightLeavesNothingMapped() async throws {
        let setup = try await makeSetup()
        do {
            let socket = try UnixSocket(path: setup.worker.socketPath)
            try socket.send(all: try sharedJPEGFrames(6, on: socket).calls + [.ping(callID: 2)])
            while let answer = try socket.receive(), answer.callID != 2 {}
            XCTAssertEqual(SharedMemorySupport.mappedMemfds(setup.worker).count, 1)
        }
        try await setup.stillServedWithNothingMapped()
        let released = setup.worker.log.split(separator: "\n").filter { $0.contains("buffer unregistered") && $0.contains("connection closed") }
        XCTAssertEqual(released.count, 1, setup.worker.log)
    }

    /// Registers a buffer holding the astronaut JPEG on `socket`, opens a
    /// video session with the mesh (so each frame takes a while), and returns
    /// `count` ProcessFrame calls naming the buffer (call IDs 10 on,
    /// timestamps 0 on), not yet sent.
    private func sharedJPEGFrames(_ count: Int, on socket: UnixSocket) throws
        -> (bufferID: UInt64, sessionID: UInt64, frame: Faceworker_V1_Frame, calls: [Faceworker_V1_ClientMessage]) {
        let jpeg = try astronaut()
        let memfd = try SharedMemorySupport.memfd(size: jpeg.count, contents: jpeg)
        defer { close(memfd) }
        let bufferID = try socket.registerBuffer(callID: 100, descriptor: memfd)
        let sessionID = try socket.openSession(Expect.options(.video) { $0.outputFaceMesh = true })
        var frame = Faceworker_V1_Frame()
        frame.sharedJpeg = Faceworker_V1_BufferRegion(buffer: bufferID, offset: 0, length: UInt64(jpeg.count))
        let calls = (0..<count).map { index -> Faceworker_V1_ClientMessage in
            frame.timestampMs = Int64(index)
            return .processFrame(callID: UInt64(10 + index), session: sessionID, frame)
        }
        return (bufferID, sessionID, frame, calls)
    }
}
