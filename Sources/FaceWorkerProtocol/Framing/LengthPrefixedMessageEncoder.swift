import NIOCore
import SwiftProtobuf

/// Serializes protobuf messages and frames them as gRPC length-prefixed
/// messages: a ``MessageHeader`` (flag 0, big-endian length), then the
/// payload. The worker and the Swift client both write with it: the client
/// as a channel handler, the worker by calling ``encode(data:out:)`` on the
/// thread that produced the answer, so serialization stays off the event loop.
package struct LengthPrefixedMessageEncoder<Message: SwiftProtobuf.Message>: MessageToByteEncoder, Sendable {
    package typealias OutboundIn = Message

    /// An encoder.
    package init() {}

    /// Appends `data`, serialized and framed, to `out`.
    ///
    /// - Throws: SwiftProtobuf's `BinaryEncodingError` when the message cannot
    ///   be serialized (invalid UTF-8 in a string field), or
    ///   ``FramingError/messageTooLarge(length:maximum:)`` for a message the
    ///   header cannot express; `out` is then left as it was.
    package func encode(data: Message, out: inout ByteBuffer) throws {
        try frame(data.serializedBytes(), into: &out)
    }

    /// One message, framed, in a buffer of its own.
    package func framed(_ message: Message, allocator: ByteBufferAllocator) throws -> ByteBuffer {
        let payload: [UInt8] = try message.serializedBytes()
        var buffer = allocator.buffer(capacity: MessageHeader.size + payload.count)
        try frame(payload, into: &buffer)
        return buffer
    }

    private func frame(_ payload: [UInt8], into out: inout ByteBuffer) throws(FramingError) {
        guard payload.count <= MessageHeader.maximumLength else {
            throw .messageTooLarge(length: payload.count, maximum: MessageHeader.maximumLength)
        }
        out.writeInteger(MessageHeader.uncompressedFlag)
        out.writeInteger(UInt32(payload.count))
        out.writeBytes(payload)
    }
}
