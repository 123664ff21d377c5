/// A byte stream that does not hold well-formed length-prefixed messages.
///
/// Framing errors cannot be recovered from: once the stream is out of step, no
/// later byte can be trusted to start a message, so the connection must close.
package enum FramingError: Error, Hashable, Sendable {
    /// A header's flag byte is not ``MessageHeader/uncompressedFlag``. gRPC
    /// uses 1 for compressed payloads, which FaceWorker does not support; any
    /// other value is invalid.
    case unsupportedFlag(UInt8)

    /// A payload is longer than the configured maximum. It is reported from the
    /// header alone, before any of the payload is read or stored.
    case messageTooLarge(length: Int, maximum: Int)

    /// The stream ended inside a message: `receivedBytes` of it (header
    /// included) had arrived out of `expectedBytes`, which is `nil` when even
    /// the header was incomplete.
    case truncatedMessage(receivedBytes: Int, expectedBytes: Int?)
}

extension FramingError: CustomStringConvertible {
    /// A sentence for logs and for the message of the ``Faceworker_V1_Status``
    /// sent to the peer.
    package var description: String {
        switch self {
        case .unsupportedFlag(1):
            return "compressed messages are not supported (message flag 1); send uncompressed messages (flag 0)"
        case .unsupportedFlag(let flag):
            return "invalid message flag \(flag); the only supported flag is 0 (uncompressed)"
        case .messageTooLarge(let length, let maximum):
            return "message of \(length) bytes exceeds the maximum of \(maximum) bytes"
        case .truncatedMessage(let received, let expected?):
            return "stream ended inside a message: \(received) of \(expected) bytes received"
        case .truncatedMessage(let received, nil):
            return "stream ended inside a message header: \(received) of \(MessageHeader.size) bytes received"
        }
    }
}
