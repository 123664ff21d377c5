import FaceWorkerProtocol
import GRPCCore
import WorkerCore

extension RPCError {
    /// The gRPC status for `error`.
    init(_ error: CallError) {
        self.init(code: RPCError.Code(Faceworker_V1_Status.Code(error.code)), message: error.message)
    }
}

extension RPCError.Code {
    /// The same code: both number gRPC's codes alike. OK and codes this
    /// worker does not know become UNKNOWN, as no failure is OK.
    init(_ code: Faceworker_V1_Status.Code) {
        self = Status.Code(rawValue: code.rawValue).flatMap { RPCError.Code($0) } ?? .unknown
    }
}
