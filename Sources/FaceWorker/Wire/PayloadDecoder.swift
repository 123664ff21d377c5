import FaceWorkerProtocol
import NIOCore

/// Splits the bytes of a connection into message payloads, without copying
/// them: each payload is a slice of the received buffer.
///
/// The 5-byte header is checked as soon as it is in, so a length above the
/// limit or a flag other than 0 fails the stream before any of its payload is
/// buffered. A `FramingError` ends the connection (the handler reports it).
struct PayloadDecoder: ByteToMessageDecoder {
    typealias InboundOut = ByteBuffer

    /// The longest payload accepted, in bytes.
    let maximumMessageLength: Int

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let header = MessageHeader(parsing: buffer.readableBytesView) else {
            return .needMoreData
        }
        guard header.flag == MessageHeader.uncompressedFlag else {
            throw FramingError.unsupportedFlag(header.flag)
        }
        let length = Int(header.length)
        guard length <= maximumMessageLength else {
            throw FramingError.messageTooLarge(length: length, maximum: maximumMessageLength)
        }
        guard buffer.readableBytes >= MessageHeader.size + length else {
            return .needMoreData
        }
        buffer.moveReaderIndex(forwardBy: MessageHeader.size)
        // The length was checked against readableBytes just above.
        let payload = buffer.readSlice(length: length)!
        context.fireChannelRead(wrapInboundOut(payload))
        return .continue
    }

    mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        while try decode(context: context, buffer: &buffer) == .continue {}
        // A peer that leaves mid-message has no use for an answer; the bytes
        // are dropped instead of raised as leftover data.
        buffer.moveReaderIndex(to: buffer.writerIndex)
        return .needMoreData
    }
}
