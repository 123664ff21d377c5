import NIOCore

/// Splits a connection's bytes into the payloads of gRPC length-prefixed
/// messages, without copying them: each payload is a slice of the received
/// buffer. The worker and the Swift client both read with it.
///
/// Each header is checked as soon as its five bytes are in: a flag other than
/// 0 or a length above ``maximumMessageLength`` throws a ``FramingError`` at
/// once, before any of that payload is waited for or buffered. A framing
/// error cannot be recovered from (no later byte can be trusted to start a
/// message), so the connection must close. When the peer closes the stream
/// inside a message, ``FramingError/truncatedMessage(receivedBytes:expectedBytes:)``
/// says how much of it came.
package struct LengthPrefixedMessageDecoder: ByteToMessageDecoder, Sendable {
    package typealias InboundOut = ByteBuffer

    /// The longest payload accepted, in bytes.
    package let maximumMessageLength: Int

    /// A decoder accepting payloads of up to `maximumMessageLength` bytes,
    /// between 0 and ``MessageHeader/maximumLength``.
    package init(maximumMessageLength: Int) {
        precondition(
            (0...MessageHeader.maximumLength).contains(maximumMessageLength),
            "maximumMessageLength must be between 0 and \(MessageHeader.maximumLength)"
        )
        self.maximumMessageLength = maximumMessageLength
    }

    package mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let payload = try nextPayload(from: &buffer) else { return .needMoreData }
        context.fireChannelRead(wrapInboundOut(payload))
        return .continue
    }

    package mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        while try decode(context: context, buffer: &buffer) == .continue {}
        guard buffer.readableBytes > 0 else { return .needMoreData }
        let received = buffer.readableBytes
        let expected = MessageHeader(parsing: buffer.readableBytesView).map { MessageHeader.size + Int($0.length) }
        buffer.moveReaderIndex(to: buffer.writerIndex)
        throw FramingError.truncatedMessage(receivedBytes: received, expectedBytes: expected)
    }

    /// The next whole payload in `buffer`, consumed from it, or nil while it
    /// holds only part of one.
    ///
    /// - Throws: ``FramingError/unsupportedFlag(_:)`` or
    ///   ``FramingError/messageTooLarge(length:maximum:)`` as soon as a bad
    ///   header is buffered, even if none of its payload has arrived.
    package func nextPayload(from buffer: inout ByteBuffer) throws(FramingError) -> ByteBuffer? {
        guard let header = MessageHeader(parsing: buffer.readableBytesView) else { return nil }
        guard header.flag == MessageHeader.uncompressedFlag else {
            throw .unsupportedFlag(header.flag)
        }
        guard UInt64(header.length) <= UInt64(maximumMessageLength) else {
            throw .messageTooLarge(length: Int(clamping: header.length), maximum: maximumMessageLength)
        }
        let length = Int(header.length)
        guard buffer.readableBytes >= MessageHeader.size + length else { return nil }
        buffer.moveReaderIndex(forwardBy: MessageHeader.size)
        // The length was checked against readableBytes just above.
        return buffer.readSlice(length: length)!
    }
}
