import Glibc

/// The client's side of a buffer handoff (see RegisterBufferResponse):
/// connect to the handoff address, send the token with the descriptors in
/// one `sendmsg`, read the one length-prefixed WorkerMessage that answers.
package enum BufferHandoffExchange {
    /// Why the exchange produced no answer.
    package enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// The handoff address is not a valid Unix socket address.
        case badAddress(String)
        /// Connecting, sending or receiving failed with this errno.
        case system(operation: String, code: Int32)
        /// The worker closed the handoff without a complete answer.
        case noAnswer
        /// The answer is not a WorkerMessage.
        case malformedAnswer(String)

        package var description: String {
            switch self {
            case .badAddress(let address): "the handoff address \"\(address)\" is not a Unix socket address"
            case .system(let operation, let code): "the buffer handoff failed to \(operation): \(String(cString: strerror(code)))"
            case .noAnswer: "the worker closed the buffer handoff without answering"
            case .malformedAnswer(let reason): "the worker's handoff answer is not a faceworker.v1.WorkerMessage: \(reason)"
            }
        }
    }

    /// The longest answer read: a BufferRegistered or a Status is far smaller.
    static let maximumAnswerLength = 64 << 10

    /// Hands `descriptors` over with `token` to the worker at `address` and
    /// returns its answer, waiting at most `timeoutSeconds` for each step.
    package static func run(address: String, token: [UInt8], descriptors: [Int32], timeoutSeconds: Int = 5) throws(Failure) -> Faceworker_V1_WorkerMessage {
        guard let handoff = HandoffAddress(address) else { throw .badAddress(address) }
        let connection = handoff.connect()
        guard connection >= 0 else { throw .system(operation: "connect to \(address)", code: errno) }
        defer { close(connection) }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(connection, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard DescriptorPassing.send(token, descriptors: descriptors, on: connection) else {
            throw .system(operation: "send the token and descriptor", code: errno)
        }
        let header = try read(MessageHeader.size, from: connection)
        guard let parsed = MessageHeader(parsing: header), parsed.flag == MessageHeader.uncompressedFlag,
              Int(parsed.length) <= maximumAnswerLength else {
            throw .malformedAnswer("bad message header \(header)")
        }
        let payload = try read(Int(parsed.length), from: connection)
        do {
            return try Faceworker_V1_WorkerMessage(serializedBytes: payload)
        } catch {
            throw .malformedAnswer("\(error)")
        }
    }

    private static func read(_ count: Int, from connection: Int32) throws(Failure) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let received = bytes[filled...].withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            if received < 0, errno == EINTR { continue }
            guard received >= 0 else { throw .system(operation: "read the answer", code: errno) }
            guard received > 0 else { throw .noAnswer }
            filled += received
        }
        return bytes
    }
}
