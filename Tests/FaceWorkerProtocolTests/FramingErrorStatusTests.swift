import FaceWorkerProtocol
import Testing

/// The status a peer gets before the worker hangs up on a broken stream: the
/// code faceworker.proto promises, and a message saying what was wrong and
/// what is allowed.
@Suite("Framing error statuses")
struct FramingErrorStatusTests {
    @Test(
        "framing errors map to the status codes the API documents",
        arguments: [
            (FramingError.messageTooLarge(length: 11, maximum: 10), Faceworker_V1_Status.Code.resourceExhausted),
            (.unsupportedFlag(1), .unimplemented),
            (.unsupportedFlag(7), .unimplemented),
            (.truncatedMessage(receivedBytes: 3, expectedBytes: nil), .dataLoss),
            (.truncatedMessage(receivedBytes: 7, expectedBytes: 9), .dataLoss),
        ]
    )
    func statusFromFramingError(error: FramingError, code: Faceworker_V1_Status.Code) {
        let status = Faceworker_V1_Status(error)
        #expect(status.code == code)
        #expect(status.message == error.description)
        #expect(status.optionalSessionID == nil)
    }

    @Test("a compressed message is told that compression is not supported and flag 0 is")
    func compressionStatus() {
        let status = Faceworker_V1_Status(.unsupportedFlag(1))
        #expect(status.code == .unimplemented)
        #expect(status.message.contains("compressed"))
        #expect(status.message.contains("flag 0"))
    }

    @Test("an unknown flag is named, with the one flag allowed")
    func unknownFlagStatus() {
        let message = Faceworker_V1_Status(.unsupportedFlag(7)).message
        #expect(message.contains("flag 7"))
        #expect(message.contains("0 (uncompressed)"))
    }

    @Test("framing error descriptions name the numbers involved")
    func descriptions() {
        #expect(FramingError.messageTooLarge(length: 11, maximum: 10).description.contains("11"))
        #expect(FramingError.messageTooLarge(length: 11, maximum: 10).description.contains("10"))
        #expect(FramingError.truncatedMessage(receivedBytes: 7, expectedBytes: 9).description.contains("7 of 9"))
        #expect(FramingError.truncatedMessage(receivedBytes: 2, expectedBytes: nil).description.contains("2 of \(MessageHeader.size)"))
    }
}
