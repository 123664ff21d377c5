import FaceDetection
import FaceWorkerProtocol
import Imaging
import XCTest

@testable import WorkerCore

/// A failure keeps its category from where it starts to the status code a
/// client sees: the client's bytes, a limit or a resource, or the worker.
final class ErrorCategoryTests: XCTestCase {
    func testImagingErrorsMapToTheStatusOfTheirCause() {
        let cases: [(ImagingError, CallError.Code)] = [
            (.emptyImage(width: 0, height: 4), .invalidArgument),
            (.rowStrideTooSmall(format: .rgb, width: 4, minimum: 12, actual: 8), .invalidArgument),
            (.bufferSizeMismatch(format: .rgb, width: 4, height: 4, rowStride: 12, expected: 48, actual: 47), .invalidArgument),
            (.invalidJPEG("Premature end of JPEG file"), .invalidArgument),
            (.tooManyPixels(width: 10_000, height: 10_000, limit: 1_000), .resourceExhausted),
            (.turboJPEG("Memory allocation failure"), .resourceExhausted),
        ]
        for (error, code) in cases {
            let status = CallError(FaceError(error))
            XCTAssertEqual(status.code, code, "\(error)")
            XCTAssertEqual(status.message, error.description, "the message is the imaging error's own")
        }
    }

    func testEveryCodeIsTheWiresCodeOfTheSameName() {
        let codes: [CallError.Code] = [
            .invalidArgument, .notFound, .alreadyExists, .permissionDenied, .resourceExhausted, .failedPrecondition, .outOfRange, .unimplemented,
            .internal, .unavailable,
        ]
        for code in codes {
            XCTAssertEqual(Faceworker_V1_Status.Code(code).metricLabel, code.name)
        }
    }

    func testPipelineErrorsKeepTheirCategory() {
        XCTAssertEqual(CallError(.invalidArgument("a")).code, .invalidArgument)
        XCTAssertEqual(CallError(.failedPrecondition("b")).code, .failedPrecondition)
        XCTAssertEqual(CallError(.resourceExhausted("c")).code, .resourceExhausted)
        XCTAssertEqual(CallError(.internalError("d")).code, .internal)
    }
}
