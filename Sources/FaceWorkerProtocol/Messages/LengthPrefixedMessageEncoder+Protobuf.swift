public import SwiftProtobuf

extension LengthPrefixedMessageEncoder {
    /// Serializes a protobuf message and appends it, framed, to `buffer`.
    ///
    /// - Parameters:
    ///   - message: The message, typically a ``Faceworker_V1_ClientMessage`` or a
    ///     ``Faceworker_V1_WorkerMessage``.
    ///   - buffer: The bytes to append to; left unchanged if this throws.
    /// - Throws: SwiftProtobuf's `BinaryEncodingError` if the message cannot be
    ///   serialized, or ``FramingError/messageTooLarge(length:maximum:)``.
    public func encode(message: some SwiftProtobuf.Message, into buffer: inout [UInt8]) throws {
        let payload: [UInt8] = try message.serializedBytes()
        try encode(payload: payload, into: &buffer)
    }

    /// Serializes and frames one protobuf message.
    ///
    /// - Parameter message: The message to send.
    /// - Returns: The header followed by the serialized message.
    /// - Throws: SwiftProtobuf's `BinaryEncodingError` if the message cannot be
    ///   serialized, or ``FramingError/messageTooLarge(length:maximum:)``.
    public func encode(message: some SwiftProtobuf.Message) throws -> [UInt8] {
        var buffer: [UInt8] = []
        try encode(message: message, into: &buffer)
        return buffer
    }
}
