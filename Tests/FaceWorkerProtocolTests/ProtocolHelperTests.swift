import FaceWorkerProtocol
import Testing

@Suite("Protocol helpers")
struct ProtocolHelperTests {
    @Test("unset options take the documented defaults")
    func defaultsFilled() {
        let options = Faceworker_V1_SessionOptions().withDefaults()
        #expect(options.minFaceSize == 0.1)
        #expect(options.minDetectionConfidence == 0.5)
        #expect(options.minSuppressionThreshold == 0.3)
        #expect(options.numFaces == 1)
        #expect(options.minFacePresenceConfidence == 0.5)
        #expect(options.minTrackingConfidence == 0.5)
        #expect(options.maxMissedFrames == 3)
        #expect(options.optionalMinFaceSize != nil)
        #expect(options.optionalNumFaces != nil)
        #expect(options.optionalMaxMissedFrames != nil)
    }

    @Test("options a client set, even to zero, are kept")
    func explicitValuesKept() {
        var options = Faceworker_V1_SessionOptions()
        options.minFaceSize = 0
        options.numFaces = 3
        options.runningMode = .video
        let filled = options.withDefaults()
        #expect(filled.minFaceSize == 0)
        #expect(filled.numFaces == 3)
        #expect(filled.runningMode == .video)
        #expect(filled.minDetectionConfidence == 0.5)
    }

    @Test(
        "framing errors map to the status codes the API documents",
        arguments: [
            (FramingError.messageTooLarge(length: 11, maximum: 10), Faceworker_V1_Status.Code.resourceExhausted),
            (.unsupportedFlag(1), .unimplemented),
            (.truncatedMessage(receivedBytes: 3, expectedBytes: nil), .dataLoss),
        ]
    )
    func statusFromFramingError(error: FramingError, code: Faceworker_V1_Status.Code) {
        let status = Faceworker_V1_Status(error)
        #expect(status.code == code)
        #expect(status.message == error.description)
        #expect(status.optionalSessionID == nil)
    }

    @Test("framing error descriptions name the numbers involved")
    func descriptions() {
        #expect(FramingError.messageTooLarge(length: 11, maximum: 10).description.contains("11"))
        #expect(FramingError.messageTooLarge(length: 11, maximum: 10).description.contains("10"))
        #expect(FramingError.unsupportedFlag(1).description.contains("compressed"))
        #expect(FramingError.truncatedMessage(receivedBytes: 7, expectedBytes: 9).description.contains("7 of 9"))
    }
}
