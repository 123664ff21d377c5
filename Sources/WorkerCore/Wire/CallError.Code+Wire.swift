import FaceWorkerProtocol

extension Faceworker_V1_Status.Code {
    /// The wire's code for `code`: the same gRPC code.
    package init(_ code: CallError.Code) {
        switch code {
        case .invalidArgument: self = .invalidArgument
        case .notFound: self = .notFound
        case .alreadyExists: self = .alreadyExists
        case .permissionDenied: self = .permissionDenied
        case .resourceExhausted: self = .resourceExhausted
        case .failedPrecondition: self = .failedPrecondition
        case .outOfRange: self = .outOfRange
        case .unimplemented: self = .unimplemented
        case .internal: self = .internal
        case .unavailable: self = .unavailable
        }
    }
}
