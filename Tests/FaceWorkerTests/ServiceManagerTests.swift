import FaceWorkerProtocol
import Foundation
import Glibc
import XCTest

/// Under a service manager the worker says READY=1 once it accepts
/// connections, pings the watchdog while it runs, and says STOPPING=1 when it
/// shuts down: systemd's notification protocol, checked here against a
/// datagram socket standing in for the manager.
final class ServiceManagerTests: XCTestCase {
    /// A bound Unix datagram socket that collects notifications.
    private final class Manager {
        let descriptor: Int32
        let address: String

        /// Binds `address`: a path, or "@name" for an abstract address.
        init(address: String) throws {
            self.address = address
            descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            // The handoff's address type spells Unix addresses as systemd does, "@" for abstract ones.
            let bound = HandoffAddress(address)?.withSocketAddress { bind(descriptor, $0, $1) }
            guard descriptor >= 0, bound == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            var timeout = timeval(tv_sec: 10, tv_usec: 0)
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }

        deinit { close(descriptor) }

        /// The next notification, nil after 10 s without one.
        func next() -> String? {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            return count > 0 ? String(decoding: buffer.prefix(count), as: UTF8.self) : nil
        }

        /// The next notification that is not a watchdog ping.
        func nextState() -> String? {
            while let message = next() {
                if message != "WATCHDOG=1" { return message }
            }
            return nil
        }
    }

    private func environment(_ assignments: String...) -> [String] {
        ["/usr/bin/env"] + assignments
    }

    func testReadyOnceListeningThenWatchdogPingsThenStoppingOnShutdown() async throws {
        let directory = try WorkerProcess.makeTemporaryDirectory()
        let manager = try Manager(address: "\(directory)/notify.sock")
        let worker = try await startWorker([], launcher: environment("NOTIFY_SOCKET=\(manager.address)", "WATCHDOG_USEC=200000"),
                                           directory: directory)
        let ready = try XCTUnwrap(manager.next(), "no READY=1")
        XCTAssertTrue(ready.hasPrefix("READY=1\n"), ready)
        XCTAssertTrue(ready.contains("MAINPID=\(worker.process.processIdentifier)"), ready)
        XCTAssertTrue(UnixSocket.accepts(worker.socketPath), "READY=1 comes once the socket accepts")
        XCTAssertEqual(manager.next(), "WATCHDOG=1", "pings every half WATCHDOG_USEC")
        XCTAssertEqual(manager.next(), "WATCHDOG=1")

        worker.signal(SIGTERM)
        let stopping = try XCTUnwrap(manager.nextState(), "no STOPPING=1")
        XCTAssertTrue(stopping.hasPrefix("STOPPING=1"), stopping)
        let status = await worker.waitForExit(timeout: .seconds(10))
        XCTAssertEqual(status, 0)
    }

    func testAnAbstractNotifySocketAndAWatchdogMeantForAnotherProcess() async throws {
        let manager = try Manager(address: "@faceworker-test-notify-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        // WATCHDOG_PID names another process (this test's), so the worker must not ping.
        let worker = try await startWorker([], launcher: environment("NOTIFY_SOCKET=\(manager.address)", "WATCHDOG_USEC=100000",
                                                                     "WATCHDOG_PID=\(getpid())"))
        let ready = try XCTUnwrap(manager.next(), "no READY=1")
        XCTAssertTrue(ready.hasPrefix("READY=1\n"), ready)
        worker.signal(SIGTERM)
        XCTAssertEqual(manager.next().map { String($0.prefix(10)) }, "STOPPING=1", "no WATCHDOG=1 in between")
        let status = await worker.waitForExit(timeout: .seconds(10))
        XCTAssertEqual(status, 0)
    }

    func testWithoutANotifySocketNothingIsSentAndTheWorkerServes() async throws {
        let directory = try WorkerProcess.makeTemporaryDirectory()
        let manager = try Manager(address: "\(directory)/notify.sock")
        let worker = try await startWorker([], launcher: environment("-u", "NOTIFY_SOCKET", "WATCHDOG_USEC=100000"), directory: directory)
        var timeout = timeval(tv_sec: 0, tv_usec: 300_000)
        setsockopt(manager.descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        XCTAssertNil(manager.next())
        let client = try await worker.connect()
        _ = try await client.ping()
        await client.close()
    }
}
