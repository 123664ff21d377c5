import FaceWorkerProtocol

extension Faceworker_V1_Status.Code {
    /// The label of every error code, OK left out: the error counter starts
    /// each at 0, so a rate over it needs no first error.
    package static var errorMetricLabels: [String] {
        allCases.filter { $0 != .ok }.map(\.metricLabel)
    }

    /// The code's name in gRPC's spelling (`INVALID_ARGUMENT`), as the
    /// `code` label of the error counter.
    package var metricLabel: String {
        switch self {
        case .ok: "OK"
        case .cancelled: "CANCELLED"
        case .unknown: "UNKNOWN"
        case .invalidArgument: "INVALID_ARGUMENT"
        case .deadlineExceeded: "DEADLINE_EXCEEDED"
        case .notFound: "NOT_FOUND"
        case .alreadyExists: "ALREADY_EXISTS"
        case .permissionDenied: "PERMISSION_DENIED"
        case .resourceExhausted: "RESOURCE_EXHAUSTED"
        case .failedPrecondition: "FAILED_PRECONDITION"
        case .aborted: "ABORTED"
        case .outOfRange: "OUT_OF_RANGE"
        case .unimplemented: "UNIMPLEMENTED"
        case .internal: "INTERNAL"
        case .unavailable: "UNAVAILABLE"
        case .dataLoss: "DATA_LOSS"
        case .unauthenticated: "UNAUTHENTICATED"
        case .UNRECOGNIZED(let value): "CODE_\(value)"
        }
    }
}
