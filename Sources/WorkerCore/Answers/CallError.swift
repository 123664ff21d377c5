import FaceDetection

/// Why a call was refused or failed: one of the status codes the worker
/// answers with, and a message that says what was wrong and what is allowed.
/// The category a failure started with (invalid argument, resource,
/// internal) is kept in the code all the way to the client; each transport
/// turns it into its own wire's status.
package struct CallError: Error, Sendable, Equatable {
    /// The status codes the worker refuses or fails a call with: gRPC's
    /// canonical codes, those the worker uses.
    package enum Code: Sendable, Hashable {
        case invalidArgument
        case notFound
        case alreadyExists
        case permissionDenied
        case resourceExhausted
        case failedPrecondition
        case outOfRange
        case unimplemented
        case `internal`
        case unavailable

        /// The code's name in gRPC's spelling (`INVALID_ARGUMENT`), as logs
        /// and the error counter's `code` label show it.
        var name: String {
            switch self {
            case .invalidArgument: "INVALID_ARGUMENT"
            case .notFound: "NOT_FOUND"
            case .alreadyExists: "ALREADY_EXISTS"
            case .permissionDenied: "PERMISSION_DENIED"
            case .resourceExhausted: "RESOURCE_EXHAUSTED"
            case .failedPrecondition: "FAILED_PRECONDITION"
            case .outOfRange: "OUT_OF_RANGE"
            case .unimplemented: "UNIMPLEMENTED"
            case .internal: "INTERNAL"
            case .unavailable: "UNAVAILABLE"
            }
        }
    }

    /// The status code.
    package var code: Code
    /// What was wrong, for people.
    package var message: String

    /// An error with `code` and `message`.
    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The status a pipeline error's category calls for.
    package init(_ error: FaceError) {
        switch error {
        case .invalidArgument(let message): self.init(.invalidArgument, message)
        case .failedPrecondition(let message): self.init(.failedPrecondition, message)
        case .resourceExhausted(let message): self.init(.resourceExhausted, message)
        case .internalError(let message): self.init(.internal, message)
        }
    }
}
