import FaceDetection
import FaceWorkerProtocol

/// Why a call was refused or failed: a status code in gRPC's numbering and a
/// message that says what was wrong and what is allowed. The category a
/// failure started with (invalid argument, resource, internal) is kept in the
/// code all the way to the client.
struct CallError: Error, Sendable, Equatable {
    /// The status code.
    var code: Faceworker_V1_Status.Code
    /// What was wrong, for people.
    var message: String

    /// An error with `code` and `message`.
    init(_ code: Faceworker_V1_Status.Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The status a pipeline error's category calls for.
    init(_ error: FaceError) {
        switch error {
        case .invalidArgument(let message): self.init(.invalidArgument, message)
        case .failedPrecondition(let message): self.init(.failedPrecondition, message)
        case .resourceExhausted(let message): self.init(.resourceExhausted, message)
        case .internalError(let message): self.init(.internal, message)
        }
    }
}
