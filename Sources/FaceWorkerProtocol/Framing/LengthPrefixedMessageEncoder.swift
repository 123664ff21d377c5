/// Frames payloads as gRPC length-prefixed messages: a ``MessageHeader``
/// (flag 0, big-endian length), then the payload.
///
/// ```swift
/// let encoder = LengthPrefixedMessageEncoder()
/// var output: [UInt8] = []
/// try encoder.encode(payload: first, into: &output)
/// try encoder.encode(payload: second, into: &output)  // one write for both
/// ```
public struct LengthPrefixedMessageEncoder: Sendable {
    /// The longest payload this encoder frames, in bytes.
    public let maximumMessageLength: Int

    /// Creates an encoder.
    ///
    /// - Parameter maximumMessageLength: The longest payload to frame, in bytes;
    ///   between 0 and ``MessageHeader/maximumLength``, which is the default.
    ///   Setting it to the peer's limit turns a message the peer would refuse
    ///   into an error on this side.
    public init(maximumMessageLength: Int = MessageHeader.maximumLength) {
        precondition(
            (0...MessageHeader.maximumLength).contains(maximumMessageLength),
            "maximumMessageLength must be between 0 and \(MessageHeader.maximumLength)"
        )
        self.maximumMessageLength = maximumMessageLength
    }

    /// The header for a payload of `length` bytes, for callers that write the
    /// header and the payload separately (for example with `writev`) to avoid
    /// copying a large payload.
    ///
    /// - Parameter length: The payload's length in bytes.
    /// - Throws: ``FramingError/messageTooLarge(length:maximum:)`` when
    ///   `length` exceeds ``maximumMessageLength``.
    public func header(forPayloadLength length: Int) throws(FramingError) -> MessageHeader {
        guard length <= maximumMessageLength else {
            throw .messageTooLarge(length: length, maximum: maximumMessageLength)
        }
        return MessageHeader(length: UInt32(length))
    }

    /// Appends one framed message to `buffer`.
    ///
    /// - Parameters:
    ///   - payload: The message's bytes.
    ///   - buffer: The bytes to append to; left unchanged if this throws.
    /// - Throws: ``FramingError/messageTooLarge(length:maximum:)``.
    public func encode(payload: some Collection<UInt8>, into buffer: inout [UInt8]) throws(FramingError) {
        let header = try header(forPayloadLength: payload.count)
        buffer.reserveCapacity(buffer.count + MessageHeader.size + payload.count)
        header.write(into: &buffer)
        buffer.append(contentsOf: payload)
    }

    /// Frames one message.
    ///
    /// - Parameter payload: The message's bytes.
    /// - Returns: The header followed by the payload.
    /// - Throws: ``FramingError/messageTooLarge(length:maximum:)``.
    public func encode(payload: some Collection<UInt8>) throws(FramingError) -> [UInt8] {
        var buffer: [UInt8] = []
        try encode(payload: payload, into: &buffer)
        return buffer
    }
}
