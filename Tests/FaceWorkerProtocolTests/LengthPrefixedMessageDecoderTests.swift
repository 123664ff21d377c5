import FaceWorkerProtocol
import SeededRandom
import Testing

@Suite("Length-prefixed message decoder")
struct LengthPrefixedMessageDecoderTests {
    /// Frames `payload` by hand, independently of the encoder under test.
    private func framed(_ payload: [UInt8], flag: UInt8 = 0) -> [UInt8] {
        let n = UInt32(payload.count)
        return [flag, UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + payload
    }

    /// Takes every complete payload out of `decoder`.
    private func drain(_ decoder: inout LengthPrefixedMessageDecoder) throws -> [[UInt8]] {
        var payloads: [[UInt8]] = []
        while let payload = try decoder.next() {
            payloads.append(payload)
        }
        return payloads
    }

    @Test("returns nothing until the header is complete")
    func partialHeader() throws {
        var decoder = LengthPrefixedMessageDecoder()
        let bytes = framed([7, 8, 9])
        for byte in bytes.prefix(4) {
            decoder.append(contentsOf: [byte])
            #expect(try decoder.next() == nil)
        }
        decoder.append(contentsOf: bytes.dropFirst(4))
        #expect(try decoder.next() == [7, 8, 9])
        #expect(try decoder.next() == nil)
    }

    @Test("returns nothing until the payload is complete")
    func partialPayload() throws {
        var decoder = LengthPrefixedMessageDecoder()
        let payload = (0..<100).map { UInt8($0) }
        let bytes = framed(payload)
        decoder.append(contentsOf: bytes.prefix(60))
        #expect(try decoder.next() == nil)
        #expect(decoder.bufferedByteCount == 60)
        decoder.append(contentsOf: bytes.dropFirst(60))
        #expect(try decoder.next() == payload)
        #expect(decoder.bufferedByteCount == 0)
    }

    @Test("splits many messages arriving in one read")
    func manyMessagesInOneChunk() throws {
        let payloads = (0..<1000).map { i in [UInt8](repeating: UInt8(i % 251), count: i % 7) }
        var decoder = LengthPrefixedMessageDecoder()
        decoder.append(contentsOf: payloads.flatMap { framed($0) })
        #expect(try drain(&decoder) == payloads)
        #expect(decoder.bufferedByteCount == 0)
    }

    @Test("assembles one message fed a byte at a time")
    func byteByByte() throws {
        let payload = (0..<300).map { UInt8(truncatingIfNeeded: $0 * 7) }
        var decoder = LengthPrefixedMessageDecoder()
        var decoded: [[UInt8]] = []
        for byte in framed(payload) + framed([1]) {
            decoder.append(contentsOf: [byte])
            decoded += try drain(&decoder)
        }
        #expect(decoded == [payload, [1]])
    }

    @Test("keeps messages intact across arbitrary read boundaries")
    func randomChunking() throws {
        var random = SplitMix64(seed: 0x5EED)
        for _ in 0..<50 {
            let payloads = (0..<Int(random.next() % 40)).map { _ in
                (0..<Int(random.next() % 600)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            }
            var stream = payloads.flatMap { framed($0) }[...]
            var decoder = LengthPrefixedMessageDecoder()
            var decoded: [[UInt8]] = []
            while !stream.isEmpty {
                let chunk = stream.prefix(1 + Int(random.next() % 700))
                stream = stream.dropFirst(chunk.count)
                decoder.append(contentsOf: chunk)
                decoded += try drain(&decoder)
            }
            #expect(decoded == payloads)
            try decoder.finish()
        }
    }

    @Test("decodes an empty payload")
    func zeroLength() throws {
        var decoder = LengthPrefixedMessageDecoder()
        decoder.append(contentsOf: [0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 42])
        #expect(try decoder.next() == [])
        #expect(try decoder.next() == [42])
        #expect(try decoder.next() == nil)
    }

    @Test("accepts a payload of exactly the maximum length")
    func exactlyMaximum() throws {
        var decoder = LengthPrefixedMessageDecoder(maximumMessageLength: 10)
        let payload = [UInt8](repeating: 3, count: 10)
        decoder.append(contentsOf: framed(payload))
        #expect(try decoder.next() == payload)
    }

    @Test("refuses a length one above the maximum from the header alone")
    func oneOverMaximum() {
        var decoder = LengthPrefixedMessageDecoder(maximumMessageLength: 10)
        decoder.append(contentsOf: [0, 0, 0, 0, 11])
        #expect(throws: FramingError.messageTooLarge(length: 11, maximum: 10)) {
            try decoder.next()
        }
    }

    @Test("refuses a 4 GiB length announced by a hostile peer without waiting for it")
    func hugeLength() {
        var decoder = LengthPrefixedMessageDecoder()
        decoder.append(contentsOf: [0, 0xFF, 0xFF, 0xFF, 0xFF])
        let maximum = LengthPrefixedMessageDecoder.defaultMaximumMessageLength
        #expect(throws: FramingError.messageTooLarge(length: 0xFFFF_FFFF, maximum: maximum)) {
            try decoder.next()
        }
    }

    @Test("refuses compressed and unknown flags", arguments: [UInt8(1), 2, 0x80, 0xFF])
    func nonZeroFlag(flag: UInt8) {
        var decoder = LengthPrefixedMessageDecoder()
        decoder.append(contentsOf: framed([1, 2, 3], flag: flag))
        #expect(throws: FramingError.unsupportedFlag(flag)) {
            try decoder.next()
        }
    }

    @Test("stays failed after a framing error, even when good bytes follow")
    func errorIsSticky() {
        var decoder = LengthPrefixedMessageDecoder()
        decoder.append(contentsOf: framed([1], flag: 1))
        #expect(throws: FramingError.unsupportedFlag(1)) { try decoder.next() }
        decoder.append(contentsOf: framed([2]))
        #expect(throws: FramingError.unsupportedFlag(1)) { try decoder.next() }
        #expect(throws: FramingError.unsupportedFlag(1)) { try decoder.finish() }
    }

    @Test("reports a stream that ends inside a header")
    func truncatedHeader() throws {
        var decoder = LengthPrefixedMessageDecoder()
        decoder.append(contentsOf: framed([5]) + [0, 0])
        #expect(try drain(&decoder) == [[5]])
        #expect(throws: FramingError.truncatedMessage(receivedBytes: 2, expectedBytes: nil)) {
            try decoder.finish()
        }
    }

    @Test("reports a stream that ends inside a payload")
    func truncatedPayload() throws {
        var decoder = LengthPrefixedMessageDecoder()
        decoder.append(contentsOf: framed([1, 2, 3, 4]).prefix(7))
        #expect(try drain(&decoder).isEmpty)
        #expect(throws: FramingError.truncatedMessage(receivedBytes: 7, expectedBytes: 9)) {
            try decoder.finish()
        }
    }

    @Test("accepts a stream that ends between messages")
    func cleanEnd() throws {
        var decoder = LengthPrefixedMessageDecoder()
        try decoder.finish()
        decoder.append(contentsOf: framed([1]) + framed([]))
        #expect(try drain(&decoder) == [[1], []])
        try decoder.finish()
    }
}
