import FaceWorkerClient
import FaceWorkerProtocol
import Foundation
import Glibc
import XCTest

/// Socket activation: started with `LISTEN_FDS=1` and `LISTEN_PID` naming it,
/// the worker serves the listening socket it inherited as descriptor 3 instead
/// of binding its own, and leaves it in place on exit; an announcement that is
/// not one listening Unix stream socket stops the start with the reason.
final class SocketActivationTests: XCTestCase {
    /// Runs the worker with standard input moved to descriptor 3 and the
    /// activation variables set for the worker's own pid, as a service manager does.
    private func activating(count: String = "1") -> [String] {
        ["/bin/sh", "-c", "exec 3<&0 0</dev/null; LISTEN_PID=$$ LISTEN_FDS=\(count) exec \"$@\"", "sh"]
    }

    private func socket(_ type: Int32, boundAt path: String, listening: Bool) throws -> Int32 {
        let descriptor = Glibc.socket(AF_UNIX, type, 0)
        let bound = HandoffAddress(path)?.withSocketAddress { bind(descriptor, $0, $1) }
        guard descriptor >= 0, bound == 0, !listening || listen(descriptor, 16) == 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        return descriptor
    }

    private func refusedStart(standardInput: FileHandle, count: String = "1") async throws -> String {
        let worker = try WorkerProcess(launcher: activating(count: count), standardInput: standardInput)
        defer { worker.stop() }
        let status = await worker.waitForExit(timeout: .seconds(30))
        XCTAssertNotNil(status)
        XCTAssertNotEqual(status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: worker.socketPath), "no socket of its own either")
        return worker.log
    }

    func testTheInheritedListenerIsServedAndLeftInPlace() async throws {
        let directory = try WorkerProcess.makeTemporaryDirectory()
        let activated = "\(directory)/activated.sock"
        let listener = try socket(Int32(SOCK_STREAM.rawValue), boundAt: activated, listening: true)
        defer { close(listener) }
        let worker = try WorkerProcess(socketPath: "\(directory)/own.sock", launcher: activating(), directory: directory,
                                       standardInput: FileHandle(fileDescriptor: listener, closeOnDealloc: false))
        defer { worker.stop() }
        let logged = await worker.waitForLog("worker started", timeout: .seconds(60))
        XCTAssertTrue(logged, worker.log)
        XCTAssertTrue(worker.log.contains("socket=\(activated) socket_activation=true"), worker.log)

        let client = try await FaceWorkerClient.connect(socketPath: activated)
        let session = try await client.openSession(options: Expect.options(.image))
        let result = try await session.process(jpeg: try TestPaths.jpeg("astronaut.jpg"))
        XCTAssertEqual(result.faces.count, 1)
        await client.close()

        worker.signal(SIGTERM)
        let status = await worker.waitForExit(timeout: .seconds(10))
        XCTAssertEqual(status, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: activated), "the manager's socket stays")
        XCTAssertFalse(FileManager.default.fileExists(atPath: "\(directory)/own.sock"), "no socket of its own")
    }

    func testADescriptorThatIsNotASocketStopsTheStart() async throws {
        let log = try await refusedStart(standardInput: try XCTUnwrap(FileHandle(forReadingAtPath: "/dev/null")))
        XCTAssertTrue(log.contains("LISTEN_FDS names descriptor 3, which is not a socket"), log)
    }

    func testADatagramSocketStopsTheStart() async throws {
        let directory = try WorkerProcess.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let datagram = try socket(Int32(SOCK_DGRAM.rawValue), boundAt: "\(directory)/datagram.sock", listening: false)
        defer { close(datagram) }
        let log = try await refusedStart(standardInput: FileHandle(fileDescriptor: datagram, closeOnDealloc: false))
        XCTAssertTrue(log.contains("which is not a listening Unix stream socket"), log)
    }

    func testACountOtherThanOneStopsTheStart() async throws {
        let log = try await refusedStart(standardInput: try XCTUnwrap(FileHandle(forReadingAtPath: "/dev/null")), count: "2")
        XCTAssertTrue(log.contains("LISTEN_FDS is \"2\": socket activation must pass exactly one"), log)
    }

    func testAnAnnouncementForAnotherProcessIsIgnored() async throws {
        let worker = try await startWorker([], launcher: ["/usr/bin/env", "LISTEN_PID=1", "LISTEN_FDS=1"])
        let logged = await worker.waitForLog("socket_activation=false")
        XCTAssertTrue(logged, worker.log)
        let client = try await worker.connect()
        _ = try await client.ping()
        await client.close()
    }
}
