import FaceWorkerProtocol
import Foundation
import Glibc

/// A plain, blocking Unix-socket connection, for sending bytes no well-behaved
/// client would send and reading the worker's answers one by one.
final class UnixSocket {
    private let descriptor: Int32
    private var reader = TestFrameReader()

    /// Connects to `path`.
    init(path: String) throws {
        descriptor = try Self.connectedDescriptor(path)
    }

    deinit {
        close(descriptor)
    }

    /// Whether a connection to `path` is accepted now.
    static func accepts(_ path: String) -> Bool {
        guard let descriptor = try? connectedDescriptor(path) else { return false }
        close(descriptor)
        return true
    }

    /// A new socket connected to `path`.
    ///
    /// - Throws: the `POSIXError` of a failed `socket` or `connect`.
    static func connectedDescriptor(_ path: String) throws -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path.utf8.prefix($0.count - 1)) }
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard status == 0 else {
            let code = errno
            close(descriptor)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
        return descriptor
    }

    /// Writes all of `bytes` to the connected socket `descriptor`; false when
    /// the peer no longer takes them (it closed the connection).
    static func sendAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    /// Writes all of `bytes`.
    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard written > 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            offset += written
        }
    }

    /// Writes as much of `bytes` as the peer takes, and returns how much that
    /// was once the socket has stayed full for `stall`.
    func send(_ bytes: [UInt8], untilStalledFor stall: Duration) -> Int {
        var offset = 0
        while offset < bytes.count {
            var poller = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            guard poll(&poller, 1, stall.pollTimeout) > 0 else { break }
            let written = bytes[offset...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, min($0.count, 65536), Int32(MSG_DONTWAIT))
            }
            guard written > 0 else { break }
            offset += written
        }
        return offset
    }

    /// Frames and writes a client message.
    func send(_ message: Faceworker_V1_ClientMessage) throws {
        try send(try TestFraming.frame(message))
    }

    /// The next message from the worker; nil when it closed the connection.
    ///
    /// - Throws: `NoAnswer` when nothing came within `timeout`.
    func receive(timeout: Duration = .seconds(30)) throws -> Faceworker_V1_WorkerMessage? {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let message = try reader.next() { return message }
            let remaining = deadline - ContinuousClock.now
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard remaining > .zero, poll(&poller, 1, remaining.pollTimeout) > 0 else {
                throw NoAnswer()
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return nil }
            reader.append(chunk[..<count])
        }
    }

    /// Nothing came from the worker in time.
    struct NoAnswer: Error {}
}

extension Duration {
    /// The duration as a `poll` timeout: whole milliseconds, rounded up so
    /// that a wait never ends before the duration has passed.
    var pollTimeout: Int32 {
        Int32(clamping: Int((self / .milliseconds(1)).rounded(.up)))
    }
}
