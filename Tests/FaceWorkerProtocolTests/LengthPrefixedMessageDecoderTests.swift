import FaceWorkerProtocol
import SeededRandom
import NIOCore
import Testing

/// The decoder as the worker and the client run it, behind NIO's
/// `ByteToMessageHandler`: reads cut anywhere give the same payloads, a bad
/// header is refused as soon as it is in, and a stream cut inside a message
/// says how much of it came.
@Suite("Length-prefixed message decoder")
struct LengthPrefixedMessageDecoderTests {
    static let maximum = WorkerSocket.maxAnswerBytes

    @Test("passes nothing on until the header is complete")
    func partialHeader() throws {
        let pipeline = DecoderPipeline(maximumMessageLength: Self.maximum)
        let bytes = framed([7, 8, 9])
        for byte in bytes.prefix(4) {
            try pipeline.write([byte])
            #expect(try pipeline.payloads().isEmpty)
        }
        try pipeline.write(bytes.dropFirst(4))
        #expect(try pipeline.payloads() == [[7, 8, 9]])
        try pipeline.close()
    }

    @Test("passes nothing on until the payload is complete")
    func partialPayload() throws {
        let pipeline = DecoderPipeline(maximumMessageLength: Self.maximum)
        let payload = (0..<100).map { UInt8($0) }
        let bytes = framed(payload)
        try pipeline.write(bytes.prefix(60))
        #expect(try pipeline.payloads().isEmpty)
        try pipeline.write(bytes.dropFirst(60))
        #expect(try pipeline.payloads() == [payload])
        try pipeline.close()
    }

    @Test("reads a header split at any byte", arguments: 0...MessageHeader.size + 3)
    func headerSplit(at split: Int) throws {
        let pipeline = DecoderPipeline(maximumMessageLength: Self.maximum)
        let bytes = framed([1, 2, 3]) + framed([4])
        try pipeline.write(bytes.prefix(split))
        try pipeline.write(bytes.dropFirst(split))
        #expect(try pipeline.payloads() == [[1, 2, 3], [4]])
        try pipeline.close()
    }

    @Test("splits many messages arriving in one read")
    func manyMessagesInOneRead() throws {
        let payloads = (0..<1000).map { i in [UInt8](repeating: UInt8(i % 251), count: i % 7) }
        let pipeline = DecoderPipeline(maximumMessageLength: Self.maximum)
        try pipeline.write(payloads.flatMap { framed($0) })
        #expect(try pipeline.payloads() == payloads)
        try pipeline.close()
    }

    @Test("assembles messages fed a byte at a time")
    func byteByByte() throws {
        let payload = (0..<300).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let pipeline = DecoderPipeline(maximumMessageLength: Self.maximum)
        for byte in framed(payload) + framed([1]) {
            try pipeline.write([byte])
        }
        #expect(try pipeline.payloads() == [payload, [1]])
        try pipeline.close()
    }

    @Test("keeps messages intact across arbitrary read boundaries")
    func randomChunking() throws {
        var random = SplitMix64(seed: 0x5EED)
        for _ in 0..<50 {
            let payloads = (0..<Int(random.next() % 40)).map { _ in
                (0..<Int(random.next() % 600)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            }
            var stream = payloads.flatMap { framed($0) }[...]
            let pipeline = DecoderPipeline(maximumMessageLength: Self.maximum)
            while !stream.isEmpty {
                let chunk = stream.prefix(1 + Int(random.next() % 700))
                stream = stream.dropFirst(chunk.count)
                try pipeline.write(chunk)
            }
            #expect(try pipeline.payloads() == payloads)
            try pipeline.close()
        }
    }

    @Test("passes on an empty payload")
    func zeroLength() throws {
        let pipeline = DecoderPipeline(maximumMessageLength: Self.maximum)
        try pipeline.write([0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 42])
        #expect(try pipeline.payloads() == [[], [42]])
        try pipeline.close()
    }

    @Test("a maximum of 0 still passes empty payloads on")
    func zeroMaximum() throws {
        let pipeline = DecoderPipeline(maximumMessageLength: 0)
        try pipeline.write(framed([]) + framed([]))
        #expect(try pipeline.payloads() == [[], []])
        #expect(throws: FramingError.messageTooLarge(length: 1, maximum: 0)) {
            try pipeline.write(MessageHeader(length: 1).bytes)
        }
    }

    @Test("accepts a payload of exactly the maximum length")
    func exactlyMaximum() throws {
        let pipeline = DecoderPipeline(maximumMessageLength: 10)
        let payload = [UInt8](repeating: 3, count: 10)
        try pipeline.write(framed(payload))
        #expect(try pipeline.payloads() == [payload])
        try pipeline.close()
    }

    @Test("refuses a length one above the maximum from the header alone")
    func oneOverMaximum() throws {
        let pipeline = DecoderPipeline(maximumMessageLength: 10)
        #expect(throws: FramingError.messageTooLarge(length: 11, maximum: 10)) {
            try pipeline.write([0, 0, 0, 0, 11])
        }
        #expect(try pipeline.payloads().isEmpty)
    }

    @Test("refuses a 4 GiB length announced by a hostile peer without waiting for it")
    func hugeLength() throws {
        let pipeline = DecoderPipeline(maximumMessageLength: Self.maximum)
        #expect(throws: FramingError.messageTooLarge(length: 0xFFFF_FFFF, maximum: Self.maximum)) {
            try pipeline.write([0, 0xFF, 0xFF, 0xFF, 0xFF])
        }
    }

    @Test("refuses a good message's header once it has all come, however it was cut")
    func tooLargeAfterGoodMessage() throws {
        let bytes = framed([1, 2]) + MessageHeader(length: 11).bytes
        for split in 0...bytes.count {
            let pipeline = DecoderPipeline(maximumMessageLength: 10)
            var thrown: (any Error)?
            for part in [bytes.prefix(split), bytes.dropFirst(split)] where thrown == nil {
                do { try pipeline.write(part) } catch { thrown = error }
            }
            #expect(thrown as? FramingError == .messageTooLarge(length: 11, maximum: 10), "split at \(split)")
            #expect(try pipeline.payloads() == [[1, 2]], "split at \(split)")
        }
    }

    @Test("refuses compressed and unknown flags from the header alone", arguments: [UInt8(1), 2, 0x80, 0xFF])
    func nonZeroFlag(flag: UInt8) throws {
        let pipeline = DecoderPipeline(maximumMessageLength: Self.maximum)
        #expect(throws: FramingError.unsupportedFlag(flag)) {
            try pipeline.write(MessageHeader(flag: flag, length: 3).bytes)
        }
        #expect(try pipeline.payloads().isEmpty)
    }

    @Test("stays failed after a framing error, even when good bytes follow")
    func errorIsSticky() throws {
        let pipeline = DecoderPipeline(maximumMessageLength: Self.maximum)
        #expect(throws: FramingError.unsupportedFlag(1)) {
            try pipeline.write(framed([1], flag: 1))
        }
        let later = #expect(throws: ByteToMessageDecoderError.self) {
            try pipeline.write(framed([2]))
        }
        guard case .dataReceivedInErrorState(let cause, let data)? = later else {
            Issue.record("bytes after the error gave \(String(describing: later))")
            return
        }
        #expect(cause as? FramingError == .unsupportedFlag(1))
        #expect(Array(data.readableBytesView) == framed([2]))
        #expect(try pipeline.payloads().isEmpty)
        try pipeline.close()
    }

    @Test("reports a stream that ends inside a header")
    func truncatedHeader() throws {
        let pipeline = DecoderPipeline(maximumMessageLength: Self.maximum)
        try pipeline.write(framed([5]) + [0, 0])
        #expect(throws: FramingError.truncatedMessage(receivedBytes: 2, expectedBytes: nil)) {
            try pipeline.close()
        }
        #expect(try pipeline.payloads() == [[5]])
    }

    @Test("reports a stream that ends inside a payload")
    func truncatedPayload() throws {
        let pipeline = DecoderPipeline(maximumMessageLength: Self.maximum)
        try pipeline.write(framed([1, 2, 3, 4]).prefix(7))
        #expect(throws: FramingError.truncatedMessage(receivedBytes: 7, expectedBytes: 9)) {
            try pipeline.close()
        }
        #expect(try pipeline.payloads().isEmpty)
    }

    @Test("accepts a stream that ends between messages")
    func cleanEnd() throws {
        let pipeline = DecoderPipeline(maximumMessageLength: Self.maximum)
        try pipeline.write(framed([1]) + framed([]))
        try pipeline.close()
        #expect(try pipeline.payloads() == [[1], []])
    }

    @Test("accepts a stream that ends before any byte")
    func emptyStream() throws {
        let pipeline = DecoderPipeline(maximumMessageLength: Self.maximum)
        try pipeline.close()
        #expect(try pipeline.payloads().isEmpty)
    }
}
