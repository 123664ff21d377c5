import FaceWorkerProtocol
import Foundation
import Glibc

/// A raw Unix-socket connection for fuzzing: it writes whatever bytes it is
/// given even after the worker has hung up (no SIGPIPE), can close its
/// sending side so the worker reads end of stream, and collects the worker's
/// answers until enough have come, the worker hangs up, or time runs out.
final class HostileConnection {
    /// Why collecting answers stopped.
    enum Ending: Equatable {
        /// The answers asked for came in.
        case counted
        /// The worker closed the connection.
        case closed
        /// Neither happened in time.
        case timedOut
    }

    private let descriptor: Int32
    private var reader = TestFrameReader()
    /// Every answer read so far, in the order it came.
    private(set) var answers: [Faceworker_V1_WorkerMessage] = []

    /// Connects to `path`.
    init(path: String) throws {
        descriptor = try UnixSocket.connectedDescriptor(path)
    }

    deinit {
        close(descriptor)
    }

    /// Writes `bytes`; false when the worker stopped taking them because it
    /// closed the connection.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        UnixSocket.sendAll(bytes, to: descriptor)
    }

    /// Frames and writes `messages` in one write.
    @discardableResult
    func send(_ messages: [Faceworker_V1_ClientMessage]) throws -> Bool {
        var bytes: [UInt8] = []
        for message in messages {
            bytes += try TestFraming.frame(message)
        }
        return send(bytes)
    }

    /// Sends nothing more: the worker reads the end of the stream.
    func finishSending() {
        shutdown(descriptor, Int32(SHUT_WR))
    }

    /// Reads until `answers` holds `count` answers (or, with no count, until
    /// the worker hangs up), the worker hangs up, or `timeout` passes.
    ///
    /// - Throws: the `FramingError` or parse error of bytes from the worker
    ///   that are not a well-formed WorkerMessage stream. (A last answer cut
    ///   short by the hang-up is dropped: a client that hung up first has no
    ///   use for it.)
    func collect(count: Int? = nil, timeout: Duration) throws -> Ending {
        try collect(until: { answers in count.map { answers.count >= $0 } ?? false }, timeout: timeout)
    }

    /// Reads until `enough` holds for the answers so far, the worker hangs
    /// up, or `timeout` passes; throws as ``collect(count:timeout:)`` does.
    func collect(until enough: ([Faceworker_V1_WorkerMessage]) -> Bool, timeout: Duration) throws -> Ending {
        let deadline = ContinuousClock.now + timeout
        while true {
            while let answer = try reader.next() {
                answers.append(answer)
            }
            if enough(answers) { return .counted }
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else { return .timedOut }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, remaining.pollTimeout)
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { return .timedOut }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let received = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if received < 0, errno == EINTR { continue }
            // A reset (the worker closed with bytes of ours unread) ends the stream too.
            guard received > 0 else { return .closed }
            reader.append(chunk[..<received])
        }
    }

    /// Sends `message` and waits for the answer with its call_id; nil when
    /// the worker hung up or did not answer in time.
    func call(_ message: Faceworker_V1_ClientMessage, timeout: Duration) throws -> Faceworker_V1_WorkerMessage? {
        guard try send([message]) else { return nil }
        let deadline = ContinuousClock.now + timeout
        while true {
            if let index = answers.firstIndex(where: { $0.callID == message.callID }) {
                return answers.remove(at: index)
            }
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero, try collect(count: answers.count + 1, timeout: remaining) == .counted else { return nil }
        }
    }
}
