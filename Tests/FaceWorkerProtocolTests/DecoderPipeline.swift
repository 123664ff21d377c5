import FaceWorkerProtocol
import NIOCore
import NIOEmbedded

/// The decoder in a channel pipeline, as the worker and the client run it,
/// fed by hand: each ``write(_:)`` is one read from the socket, and
/// ``close()`` is the peer hanging up.
struct DecoderPipeline {
    let channel: EmbeddedChannel

    init(maximumMessageLength: Int) {
        channel = EmbeddedChannel(handler: ByteToMessageHandler(LengthPrefixedMessageDecoder(maximumMessageLength: maximumMessageLength)))
    }

    /// Delivers `bytes` as one read, and throws what the decoder threw on it.
    func write(_ bytes: some Sequence<UInt8>) throws {
        try channel.writeInbound(channel.allocator.buffer(bytes: bytes))
    }

    /// Ends the stream, and throws what the decoder threw on the end.
    func close() throws {
        _ = try channel.finish()
    }

    /// The payloads the decoder passed on since the last call, as buffers.
    func payloadBuffers() throws -> [ByteBuffer] {
        var payloads: [ByteBuffer] = []
        while let payload = try channel.readInbound(as: ByteBuffer.self) {
            payloads.append(payload)
        }
        return payloads
    }

    /// The payloads the decoder passed on since the last call, as bytes.
    func payloads() throws -> [[UInt8]] {
        try payloadBuffers().map { Array($0.readableBytesView) }
    }
}

/// Frames `payload` by hand, independently of the encoder under test.
func framed(_ payload: [UInt8], flag: UInt8 = 0) -> [UInt8] {
    let n = UInt32(payload.count)
    return [flag, UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + payload
}
