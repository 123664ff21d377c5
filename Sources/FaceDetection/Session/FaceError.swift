import Imaging

/// Why a frame or a session request was refused, in categories that map onto
/// gRPC-style status codes at the server.
package enum FaceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The caller sent something outside what is allowed (the message says what is).
    case invalidArgument(String)
    /// The call does not fit the session's state or mode.
    case failedPrecondition(String)
    /// The input is valid but larger than the caller's limit, or the engine
    /// ran out of memory for it.
    case resourceExhausted(String)
    /// The engine failed on valid input.
    case internalError(String)

    package var description: String {
        switch self {
        case .invalidArgument(let message), .failedPrecondition(let message), .resourceExhausted(let message),
             .internalError(let message):
            message
        }
    }
}

extension FaceError {
    /// The category of an image that could not be decoded or converted: the
    /// client's bytes are at fault, except for an image over the pixel limit
    /// and a TurboJPEG that could not allocate its state.
    package init(_ error: ImagingError) {
        switch error {
        case .emptyImage, .rowStrideTooSmall, .bufferSizeMismatch, .invalidJPEG:
            self = .invalidArgument(error.description)
        case .tooManyPixels, .turboJPEG:
            self = .resourceExhausted(error.description)
        }
    }
}
