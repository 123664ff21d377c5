import FaceWorkerProtocol
import Testing

@Suite("Length-prefixed message encoder")
struct LengthPrefixedMessageEncoderTests {
    @Test("writes flag 0, the big-endian length, then the payload")
    func exactBytes() throws {
        let encoder = LengthPrefixedMessageEncoder()
        #expect(try encoder.encode(payload: [0xAA, 0xBB, 0xCC]) == [0, 0, 0, 0, 3, 0xAA, 0xBB, 0xCC])
        #expect(try encoder.encode(payload: [UInt8]()) == [0, 0, 0, 0, 0])
        let long = try encoder.encode(payload: [UInt8](repeating: 1, count: 0x0001_0203))
        #expect(Array(long.prefix(5)) == [0, 0, 1, 2, 3])
        #expect(long.count == 5 + 0x0001_0203)
    }

    @Test("appends after what the buffer already holds")
    func appends() throws {
        let encoder = LengthPrefixedMessageEncoder()
        var buffer: [UInt8] = [9]
        try encoder.encode(payload: [1], into: &buffer)
        try encoder.encode(payload: [2, 3], into: &buffer)
        #expect(buffer == [9, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 2, 2, 3])
    }

    @Test("refuses a payload above its maximum and leaves the buffer alone")
    func tooLarge() throws {
        let encoder = LengthPrefixedMessageEncoder(maximumMessageLength: 4)
        var buffer: [UInt8] = [7]
        #expect(throws: FramingError.messageTooLarge(length: 5, maximum: 4)) {
            try encoder.encode(payload: [1, 2, 3, 4, 5], into: &buffer)
        }
        #expect(buffer == [7])
        try encoder.encode(payload: [1, 2, 3, 4], into: &buffer)
        #expect(buffer.count == 1 + 5 + 4)
    }

    @Test("gives the header alone for scatter-gather writes")
    func headerOnly() throws {
        let encoder = LengthPrefixedMessageEncoder(maximumMessageLength: 1000)
        #expect(try encoder.header(forPayloadLength: 1000).bytes == [0, 0, 0, 3, 0xE8])
        #expect(throws: FramingError.messageTooLarge(length: 1001, maximum: 1000)) {
            try encoder.header(forPayloadLength: 1001)
        }
    }

    @Test("produces what the decoder reads back")
    func roundTrip() throws {
        let encoder = LengthPrefixedMessageEncoder()
        let payloads: [[UInt8]] = [[], [0], Array(repeating: 0xFF, count: 70_000), [1, 2]]
        var stream: [UInt8] = []
        for payload in payloads {
            try encoder.encode(payload: payload, into: &stream)
        }
        var decoder = LengthPrefixedMessageDecoder()
        decoder.append(contentsOf: stream)
        var decoded: [[UInt8]] = []
        while let payload = try decoder.next() {
            decoded.append(payload)
        }
        #expect(decoded == payloads)
    }
}
