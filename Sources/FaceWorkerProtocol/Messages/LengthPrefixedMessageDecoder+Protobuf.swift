public import SwiftProtobuf

extension LengthPrefixedMessageDecoder {
    /// Takes the next complete message out of the buffered bytes and parses it.
    ///
    /// The payload is consumed before it is parsed, so when parsing fails the
    /// stream is still in step: the caller can report the bad message and go on
    /// with the next one.
    ///
    /// - Parameters:
    ///   - type: The message type, typically ``Faceworker_V1_ClientMessage`` on
    ///     the worker and ``Faceworker_V1_WorkerMessage`` on a client.
    ///   - options: SwiftProtobuf's decoding limits, such as the nesting depth.
    /// - Returns: The message, or `nil` if no complete message is buffered yet.
    /// - Throws: A ``FramingError`` as ``next()`` does (the stream is then
    ///   unusable), or SwiftProtobuf's `BinaryDecodingError` when the payload
    ///   is not a valid message of that type (the stream stays usable).
    public mutating func nextMessage<Message: SwiftProtobuf.Message>(
        as type: Message.Type = Message.self,
        options: BinaryDecodingOptions = BinaryDecodingOptions()
    ) throws -> Message? {
        guard let payload = try next() else {
            return nil
        }
        return try Message(serializedBytes: payload, options: options)
    }
}
