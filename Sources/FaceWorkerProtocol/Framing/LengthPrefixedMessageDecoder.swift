/// Splits a byte stream into the payloads of gRPC length-prefixed messages.
///
/// Feed it bytes as they arrive, in chunks of any size, with
/// ``append(contentsOf:)``; then call ``next()`` until it returns `nil`. A
/// chunk may hold many messages, a message may span many chunks, and a header
/// may be split anywhere. When the peer closes the stream, ``finish()`` tells
/// whether it stopped in the middle of a message.
///
/// ```swift
/// var decoder = LengthPrefixedMessageDecoder(maximumMessageLength: 8 << 20)
/// decoder.append(contentsOf: bytesFromSocket)
/// while let payload = try decoder.next() {
///     handle(payload)
/// }
/// ```
///
/// Each header is checked as soon as its five bytes are in: a non-zero flag or
/// a length above ``maximumMessageLength`` throws at once, before the decoder
/// waits for, stores or allocates any of that payload. After a ``FramingError``
/// the decoder is spent and throws the same error again.
public struct LengthPrefixedMessageDecoder: Sendable {
    /// The default for ``maximumMessageLength``: 64 MiB, room for an
    /// uncompressed 4K RGBA frame (about 33 MB).
    public static let defaultMaximumMessageLength = 64 << 20

    /// Capacity the buffer keeps between messages. Keeping it saves a
    /// reallocation per frame; capping it stops one huge message from pinning
    /// its size in memory for the rest of the connection.
    private static let retainedCapacity = 1 << 22

    /// The longest payload accepted, in bytes.
    public let maximumMessageLength: Int

    /// Received bytes; those before `readIndex` are already consumed.
    private var buffer: [UInt8] = []

    /// Consumed bytes are skipped over instead of removed one message at a
    /// time, so taking many small messages out of one large read stays linear.
    private var readIndex = 0

    private var failure: FramingError?

    /// Creates a decoder.
    ///
    /// - Parameter maximumMessageLength: The longest payload accepted, in bytes;
    ///   between 0 and ``MessageHeader/maximumLength``.
    public init(maximumMessageLength: Int = Self.defaultMaximumMessageLength) {
        precondition(
            (0...MessageHeader.maximumLength).contains(maximumMessageLength),
            "maximumMessageLength must be between 0 and \(MessageHeader.maximumLength)"
        )
        self.maximumMessageLength = maximumMessageLength
    }

    /// The number of received bytes not yet returned as part of a payload.
    public var bufferedByteCount: Int {
        buffer.count - readIndex
    }

    /// Adds bytes received from the stream.
    ///
    /// - Parameter bytes: The next bytes of the stream, in order.
    public mutating func append(contentsOf bytes: some Sequence<UInt8>) {
        compact()
        buffer.append(contentsOf: bytes)
    }

    /// Takes the next complete payload out of the buffered bytes.
    ///
    /// - Returns: The payload, or `nil` if no complete message is buffered yet.
    /// - Throws: ``FramingError/unsupportedFlag(_:)`` or
    ///   ``FramingError/messageTooLarge(length:maximum:)`` as soon as a bad
    ///   header is buffered, even if none of its payload has arrived.
    public mutating func next() throws(FramingError) -> [UInt8]? {
        if let failure {
            throw failure
        }
        guard let header = MessageHeader(parsing: buffer[readIndex...]) else {
            return nil
        }
        try validate(header)
        let payloadStart = readIndex + MessageHeader.size
        let payloadEnd = payloadStart + Int(header.length)
        guard payloadEnd <= buffer.count else {
            return nil
        }
        let payload = Array(buffer[payloadStart..<payloadEnd])
        readIndex = payloadEnd
        return payload
    }

    /// Checks, once the peer has closed the stream, that it did not stop in the
    /// middle of a message.
    ///
    /// Call it after ``next()`` has returned `nil`.
    ///
    /// - Throws: ``FramingError/truncatedMessage(receivedBytes:expectedBytes:)``
    ///   if part of a message is buffered, or the error ``next()`` threw.
    public func finish() throws(FramingError) {
        if let failure {
            throw failure
        }
        let received = bufferedByteCount
        guard received > 0 else {
            return
        }
        let expected = MessageHeader(parsing: buffer[readIndex...]).map {
            Int(clamping: UInt64(MessageHeader.size) + UInt64($0.length))
        }
        throw .truncatedMessage(receivedBytes: received, expectedBytes: expected)
    }

    private mutating func validate(_ header: MessageHeader) throws(FramingError) {
        if header.flag != MessageHeader.uncompressedFlag {
            failure = .unsupportedFlag(header.flag)
        } else if UInt64(header.length) > UInt64(maximumMessageLength) {
            failure = .messageTooLarge(length: Int(clamping: header.length), maximum: maximumMessageLength)
        }
        if let failure {
            throw failure
        }
    }

    /// Drops consumed bytes. Moving the unconsumed tail only once it is no
    /// longer than what was consumed keeps the total copying linear in the
    /// bytes received.
    private mutating func compact() {
        if readIndex == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= Self.retainedCapacity)
            readIndex = 0
        } else if readIndex >= buffer.count - readIndex {
            buffer.removeSubrange(..<readIndex)
            readIndex = 0
        }
    }
}
