import Dispatch
import Foundation
import Glibc
import Synchronization
import XCTest

/// A face-worker process started from the built binary on a socket in a
/// fresh temporary directory, killed when its test ends.
final class TestWorker: Sendable {
    let directory: String
    let socketPath: String
    let process = Process()

    private init(socketPath: String? = nil, directory: String) throws {
        self.directory = directory
        self.socketPath = socketPath ?? "\(directory)/worker.sock"
        process.executableURL = URL(fileURLWithPath: TestPaths.workerBinary)
        process.arguments = ["--socket", self.socketPath, "--models", TestPaths.models]
        let log = FileHandle(forWritingAtPath: "/dev/null")
        process.standardOutput = log
        process.standardError = log
        try process.run()
    }

    /// Starts a worker and waits until it accepts connections.
    static func start(socketPath: String? = nil) async throws -> TestWorker {
        let worker = try TestWorker(socketPath: socketPath, directory: try socketPath.map { URL(fileURLWithPath: $0).deletingLastPathComponent().path } ?? makeDirectory())
        while !accepts(worker.socketPath) {
            guard worker.process.isRunning else {
                throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "face-worker exited with status \(worker.process.terminationStatus)"])
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        return worker
    }

    /// Kills the worker and waits for it to exit.
    func kill() {
        guard process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    private static func makeDirectory() throws -> String {
        var template = Array("/tmp/fw-api-XXXXXX".utf8CString)
        guard let path = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        return String(cString: path)
    }

    /// Whether a connection to `path` is accepted.
    private static func accepts(_ path: String) -> Bool {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in
            bytes.copyBytes(from: path.utf8.prefix(bytes.count - 1))
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0 }
        }
    }
}

/// A test case with a worker of its own, which the guides' programs find as
/// an application does: through `FACEWORKER_SOCKET`.
class WorkerTestCase: XCTestCase {
    private(set) var worker: TestWorker!
    /// The variable as the test found it, given back when it ends.
    private var socketVariable: String?

    override func setUp() async throws {
        try await super.setUp()
        worker = try await TestWorker.start()
        socketVariable = ProcessInfo.processInfo.environment["FACEWORKER_SOCKET"]
        setenv("FACEWORKER_SOCKET", worker.socketPath, 1)
    }

    /// Kills the worker and starts another on the same socket, as a restart
    /// does; waits until it listens.
    func restartWorker() throws {
        let socketPath = worker.socketPath
        worker.kill()
        let started = DispatchSemaphore(value: 0)
        let outcome = Mutex<Result<TestWorker, any Error>?>(nil)
        Task {
            let result: Result<TestWorker, any Error>
            do { result = .success(try await TestWorker.start(socketPath: socketPath)) } catch { result = .failure(error) }
            outcome.withLock { $0 = result }
            started.signal()
        }
        started.wait()
        worker = try outcome.withLock { $0! }.get()
    }

    override func tearDown() async throws {
        if let socketVariable { setenv("FACEWORKER_SOCKET", socketVariable, 1) } else { unsetenv("FACEWORKER_SOCKET") }
        worker.kill()
        try? FileManager.default.removeItem(atPath: worker.directory)
        try await super.tearDown()
    }
}
