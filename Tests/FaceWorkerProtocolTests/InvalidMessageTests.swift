import FaceWorkerProtocol
import SeededRandom
import NIOCore
import SwiftProtobuf
import Testing

/// A peer's bad bytes become errors, never crashes, and a bad payload does not
/// throw the stream out of step.
@Suite("Invalid messages")
struct InvalidMessageTests {
    static let malformed: [(String, [UInt8])] = [
        ("truncated varint", [0x08]),
        ("varint longer than ten bytes", [0x08] + Array(repeating: 0xFF, count: 11)),
        ("wire type 7 does not exist", [0x0F, 0x00]),
        ("length runs past the end", [0x32, 0x05, 0x0A]),
        ("nested message is itself truncated", [0x32, 0x02, 0x0A, 0x05]),
        ("field number 0 is invalid", [0x00, 0x01]),
    ]

    @Test("malformed payloads fail to parse with an error", arguments: malformed)
    func malformedPayload(name: String, bytes: [UInt8]) {
        #expect(throws: BinaryDecodingError.self, "\(name)") {
            try Faceworker_V1_ClientMessage(serializedBytes: bytes)
        }
    }

    @Test("a payload that is not a message is framed like any other, and the next message still parses")
    func streamStaysInStep() throws {
        var stream = ByteBuffer(bytes: framed([0x0F, 0x00]))
        try LengthPrefixedMessageEncoder<Faceworker_V1_ClientMessage>().encode(data: .with { $0.callID = 42 }, out: &stream)
        let pipeline = DecoderPipeline(maximumMessageLength: WorkerSocket.maxAnswerBytes)
        try pipeline.write(stream.readableBytesView)
        try pipeline.close()
        let payloads = try pipeline.payloadBuffers()
        try #require(payloads.count == 2)
        let (bad, good) = (payloads[0], payloads[1])
        #expect(throws: BinaryDecodingError.self) {
            try Faceworker_V1_ClientMessage(serializedBytes: bad.readableBytesSpan)
        }
        #expect(try Faceworker_V1_ClientMessage(serializedBytes: good.readableBytesSpan).callID == 42)
    }

    @Test("a message kind this version does not know parses with no kind set")
    func unknownKind() throws {
        // call_id 5, then field 100 (length-delimited, empty): a call from a
        // newer client, which the worker answers with UNIMPLEMENTED.
        let message = try Faceworker_V1_ClientMessage(serializedBytes: [0x08, 0x05, 0xA2, 0x06, 0x00])
        #expect(message.callID == 5)
        #expect(message.kind == nil)
    }

    @Test("random bytes either fail to parse or parse to a stable message")
    func randomBytes() throws {
        var random = SplitMix64(seed: 0xFACE)
        for _ in 0..<5000 {
            let bytes = (0..<Int(random.next() % 64)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            guard let message = try? Faceworker_V1_ClientMessage(serializedBytes: bytes) else {
                continue
            }
            let reparsed = try Faceworker_V1_ClientMessage(serializedBytes: message.serializedBytes() as [UInt8])
            #expect(reparsed == message)
        }
    }
}
