import FaceWorkerProtocol
import NIOCore
import Testing

/// `nextPayload(from:)`, the decoder's step on a buffer of its own: it takes
/// one whole message or nothing, and hands the payload out without copying it.
@Suite("Length-prefixed decoder, one step")
struct LengthPrefixedNextPayloadTests {
    let decoder = LengthPrefixedMessageDecoder(maximumMessageLength: 100)

    @Test("leaves a buffer holding part of a message as it was")
    func partialMessage() throws {
        let bytes = framed([1, 2, 3])
        for count in 0..<bytes.count {
            var buffer = ByteBuffer(bytes: bytes.prefix(count))
            let payload = try decoder.nextPayload(from: &buffer)
            #expect(payload == nil, "\(count) bytes")
            #expect(buffer.readerIndex == 0 && buffer.readableBytes == count, "\(count) bytes")
        }
    }

    @Test("takes exactly one message and leaves the rest")
    func oneMessage() throws {
        var buffer = ByteBuffer(bytes: framed([1, 2, 3]) + framed([4]) + [0, 0])
        let first = try decoder.nextPayload(from: &buffer)
        #expect(first.map { Array($0.readableBytesView) } == [1, 2, 3])
        #expect(Array(buffer.readableBytesView) == framed([4]) + [0, 0])
        let second = try decoder.nextPayload(from: &buffer)
        #expect(second.map { Array($0.readableBytesView) } == [4])
        let third = try decoder.nextPayload(from: &buffer)
        #expect(third == nil)
        #expect(Array(buffer.readableBytesView) == [0, 0])
    }

    @Test("hands the payload out as a slice of the received bytes, not a copy")
    func payloadIsSlice() throws {
        var buffer = ByteBuffer(bytes: framed([9, 8, 7, 6]))
        let received = buffer.withUnsafeReadableBytes { UInt(bitPattern: $0.baseAddress) }
        let taken = try decoder.nextPayload(from: &buffer)
        let payload = try #require(taken)
        let handedOut = payload.withUnsafeReadableBytes { UInt(bitPattern: $0.baseAddress) }
        #expect(handedOut == received + UInt(MessageHeader.size))
        #expect(Array(payload.readableBytesView) == [9, 8, 7, 6])
    }

    @Test("refuses a bad header before its payload has come")
    func badHeader() {
        var tooLong = ByteBuffer(bytes: MessageHeader(length: 101).bytes)
        #expect(throws: FramingError.messageTooLarge(length: 101, maximum: 100)) {
            try decoder.nextPayload(from: &tooLong)
        }
        var compressed = ByteBuffer(bytes: MessageHeader(flag: 1, length: 1).bytes)
        #expect(throws: FramingError.unsupportedFlag(1)) {
            try decoder.nextPayload(from: &compressed)
        }
    }
}
