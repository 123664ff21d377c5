import FaceWorkerClient
import Foundation
import Glibc
import XCTest

/// A face-worker process started from the built binary, with its own socket in
/// a fresh temporary directory.
final class WorkerProcess: Sendable {
    /// The temporary directory holding the socket and the worker's log.
    let directory: String
    /// The socket the worker listens on.
    let socketPath: String
    /// The process.
    let process = Process()
    private let logPath: String

    /// Starts a worker with `arguments` added to `--socket` and `--models`.
    ///
    /// - Parameters:
    ///   - socketPath: the socket; by default `worker.sock` in the fresh directory.
    ///   - launcher: a command the worker runs under (such as `setpriv`).
    ///   - standardInput: what the worker (or its launcher) reads as standard
    ///     input, by default the test's.
    init(arguments: [String] = [], socketPath: String? = nil, launcher: [String] = [], directory: String? = nil,
         standardInput: FileHandle? = nil) throws {
        self.directory = try directory ?? Self.makeTemporaryDirectory()
        self.socketPath = socketPath ?? "\(self.directory)/worker.sock"
        logPath = "\(self.directory)/worker-\(UUID().uuidString.prefix(8)).log"
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        let command = launcher + [TestPaths.workerBinary, "--socket", self.socketPath, "--models", TestPaths.models] + arguments
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.standardOutput = log
        process.standardError = log
        if let standardInput { process.standardInput = standardInput }
        try process.run()
    }

    /// Starts a worker and waits until it accepts connections.
    static func start(_ arguments: [String] = [], launcher: [String] = [], directory: String? = nil) async throws -> WorkerProcess {
        let worker = try WorkerProcess(arguments: arguments, launcher: launcher, directory: directory)
        try await worker.waitUntilListening()
        return worker
    }

    /// Connects a client.
    func connect() async throws -> FaceWorkerClient {
        try await FaceWorkerClient.connect(socketPath: socketPath)
    }

    /// Waits until the socket accepts connections; fails if the worker exits first.
    func waitUntilListening(timeout: Duration = .seconds(60)) async throws {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if UnixSocket.accepts(socketPath) { return }
            guard process.isRunning else {
                throw WorkerExited(status: process.terminationStatus, log: log)
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw WorkerExited(status: -1, log: "not listening after \(timeout):\n\(log)")
    }

    /// Sends a signal to the worker.
    func signal(_ number: Int32) {
        kill(process.processIdentifier, number)
    }

    /// Stops the worker with SIGSTOP and waits until every one of its threads
    /// has stopped: the signal only asks, and a thread busy with a frame
    /// could otherwise still answer one sent after it.
    func freeze(timeout: Duration = .seconds(10)) async throws {
        signal(SIGSTOP)
        let deadline = ContinuousClock.now + timeout
        let tasks = "/proc/\(process.processIdentifier)/task"
        while ContinuousClock.now < deadline {
            let threads = (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? []
            let states = threads.map { thread in
                // The state is the field after the parenthesised command name.
                let stat = (try? String(contentsOfFile: "\(tasks)/\(thread)/stat", encoding: .utf8)) ?? ""
                return stat.split(separator: ")").last?.split(separator: " ").first.map(String.init) ?? "?"
            }
            if !states.isEmpty, states.allSatisfy({ $0 == "T" }) { return }
            try await Task.sleep(for: .milliseconds(1))
        }
        throw WorkerExited(status: -1, log: "not stopped \(timeout) after SIGSTOP:\n\(log)")
    }

    /// Waits for the worker to exit and returns its exit status, or nil on timeout.
    func waitForExit(timeout: Duration) async -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            guard ContinuousClock.now < deadline else { return nil }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return process.terminationStatus
    }

    /// Kills the worker if it still runs, and removes its directory.
    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Waits until the worker's log contains `text`; false after `timeout`.
    func waitForLog(_ text: String, timeout: Duration = .seconds(10)) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !log.contains(text) {
            guard ContinuousClock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return true
    }

    /// What the worker logged so far.
    var log: String {
        (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
    }

    /// A fresh directory for sockets, short enough for `sun_path`.
    static func makeTemporaryDirectory() throws -> String {
        var template = Array("/tmp/fw-test-XXXXXX".utf8CString)
        guard let path = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        return String(cString: path)
    }
}

/// The worker exited (or never listened) when it was expected to serve.
struct WorkerExited: Error, CustomStringConvertible {
    var status: Int32
    var log: String
    var description: String { "face-worker exited with status \(status); its log:\n\(log)" }
}

extension XCTestCase {
    /// Starts a worker that is killed when the test ends.
    func startWorker(_ arguments: [String] = [], launcher: [String] = [], directory: String? = nil) async throws -> WorkerProcess {
        let worker = try await WorkerProcess.start(arguments, launcher: launcher, directory: directory)
        addTeardownBlock { worker.stop() }
        return worker
    }
}
