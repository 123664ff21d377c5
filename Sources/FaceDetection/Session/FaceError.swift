/// Why a frame or a session request was refused, in categories that map onto
/// gRPC-style status codes at the server.
public enum FaceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The caller sent something outside what is allowed (the message says what is).
    case invalidArgument(String)
    /// The call does not fit the session's state or mode.
    case failedPrecondition(String)
    /// The engine failed on valid input.
    case internalError(String)

    public var description: String {
        switch self {
        case .invalidArgument(let message), .failedPrecondition(let message), .internalError(let message):
            message
        }
    }
}
