import FaceWorkerProtocol
import Foundation
import NIOCore
import NIOEmbedded
import Testing

/// The encoder frames a message's protobuf bytes behind a gRPC header, the
/// same way whether the client writes through its channel handler or the
/// worker frames an answer itself.
@Suite("Length-prefixed message encoder")
struct LengthPrefixedMessageEncoderTests {
    let encoder = LengthPrefixedMessageEncoder<Faceworker_V1_ClientMessage>()

    static func ping(payloadLength: Int) -> Faceworker_V1_ClientMessage {
        .with {
            $0.callID = 1
            $0.ping.payload = Data(repeating: 0x5A, count: payloadLength)
        }
    }

    /// The header for a payload of `count` bytes, written out by hand.
    static func header(_ count: Int) -> [UInt8] {
        [0, UInt8(count >> 24 & 0xFF), UInt8(count >> 16 & 0xFF), UInt8(count >> 8 & 0xFF), UInt8(count & 0xFF)]
    }

    @Test("writes flag 0, the big-endian length, then the message's protobuf bytes")
    func exactBytes() throws {
        var out = ByteBuffer()
        try encoder.encode(data: .with { $0.callID = 1; $0.ping.payload = Data("hi".utf8) }, out: &out)
        // The ping envelope of the wire contract: eight protobuf bytes.
        #expect(Array(out.readableBytesView) == [0, 0, 0, 0, 8, 0x08, 0x01, 0x32, 0x04, 0x0A, 0x02, 0x68, 0x69])
    }

    @Test("frames an empty message as a header alone")
    func emptyMessage() throws {
        var out = ByteBuffer()
        try encoder.encode(data: Faceworker_V1_ClientMessage(), out: &out)
        #expect(Array(out.readableBytesView) == [0, 0, 0, 0, 0])
    }

    @Test("puts every byte of the length in the header", arguments: [0x7F, 0x100, 0x0001_0203, 3 << 20])
    func lengthBytes(payloadLength: Int) throws {
        let message = Self.ping(payloadLength: payloadLength)
        let protobuf: [UInt8] = try message.serializedBytes()
        var out = ByteBuffer()
        try encoder.encode(data: message, out: &out)
        #expect(Array(out.readableBytesView.prefix(MessageHeader.size)) == Self.header(protobuf.count))
        #expect(Array(out.readableBytesView.dropFirst(MessageHeader.size)) == protobuf)
    }

    @Test("appends after what the buffer already holds")
    func appends() throws {
        var out = ByteBuffer(bytes: [9])
        let first = Faceworker_V1_ClientMessage.with { $0.callID = 1 }
        let second = Faceworker_V1_ClientMessage.with { $0.callID = 2; $0.closeSession.sessionID = 3 }
        try encoder.encode(data: first, out: &out)
        try encoder.encode(data: second, out: &out)
        let firstBytes: [UInt8] = try first.serializedBytes()
        let secondBytes: [UInt8] = try second.serializedBytes()
        #expect(Array(out.readableBytesView) == [9] + Self.header(firstBytes.count) + firstBytes + Self.header(secondBytes.count) + secondBytes)
    }

    @Test("frames alike as a channel handler, into a buffer, and into a buffer of its own")
    func threeWaysAgree() throws {
        let message = Self.ping(payloadLength: 1000)
        let channel = EmbeddedChannel(handler: MessageToByteHandler(encoder))
        try channel.writeOutbound(message)
        let written = try #require(try channel.readOutbound(as: ByteBuffer.self))
        #expect(try channel.finish().isClean)
        var out = ByteBuffer()
        try encoder.encode(data: message, out: &out)
        let own = try encoder.framed(message, allocator: ByteBufferAllocator())
        #expect(written == out)
        #expect(own == out)
    }

    @Test("produces what the decoder reads back")
    func roundTrip() throws {
        let messages = [0, 1, 70_000, 2].map(Self.ping(payloadLength:))
        var stream = ByteBuffer()
        for message in messages {
            try encoder.encode(data: message, out: &stream)
        }
        let pipeline = DecoderPipeline(maximumMessageLength: WorkerSocket.maxAnswerBytes)
        try pipeline.write(stream.readableBytesView)
        try pipeline.close()
        let decoded = try pipeline.payloadBuffers().map { try Faceworker_V1_ClientMessage(serializedBytes: $0.readableBytesSpan) }
        #expect(decoded == messages)
    }
}
