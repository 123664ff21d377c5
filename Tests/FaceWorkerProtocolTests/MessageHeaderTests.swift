import FaceWorkerProtocol
import Testing

@Suite("Message header")
struct MessageHeaderTests {
    @Test("writes the flag and a big-endian length")
    func wireForm() {
        #expect(MessageHeader(length: 0x0102_0304).bytes == [0, 1, 2, 3, 4])
        #expect(MessageHeader(flag: 1, length: 5).bytes == [1, 0, 0, 0, 5])
    }

    @Test("parses what it writes, and nothing shorter than five bytes")
    func parsing() {
        let header = MessageHeader(length: 0xFFFF_FFFE)
        #expect(MessageHeader(parsing: header.bytes) == header)
        #expect(MessageHeader(parsing: header.bytes + [9, 9]) == header)
        #expect(MessageHeader(parsing: [0, 0, 0, 1]) == nil)
        #expect(MessageHeader(parsing: [UInt8]()) == nil)
    }
}
