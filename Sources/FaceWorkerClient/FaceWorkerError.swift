import FaceWorkerProtocol

/// A call the worker answered with a status instead of a result, or a
/// connection that ended before the answer came.
public struct FaceWorkerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The worker's status code (gRPC's numbering).
    package var code: Faceworker_V1_Status.Code
    /// The worker's explanation, for people.
    public var message: String
    /// The session the call was about, when the worker named one.
    public var sessionID: UInt64?
    /// Whether the worker itself answered with this status; false for a
    /// connection that ended without a word, or a check of the client's own.
    public var isFromWorker: Bool

    /// Creates an error of the client's own (not the worker's answer).
    package init(code: Faceworker_V1_Status.Code, message: String, sessionID: UInt64? = nil) {
        self.code = code
        self.message = message
        self.sessionID = sessionID
        isFromWorker = false
    }

    /// The error a worker's status describes.
    package init(_ status: Faceworker_V1_Status) {
        self.init(code: status.code, message: status.message, sessionID: status.optionalSessionID.map { _ in status.sessionID })
        isFromWorker = true
    }

    /// Whether the worker refused the call because it is shutting down
    /// (perhaps to restart), rather than the connection being cut: both are
    /// UNAVAILABLE, and the worker answers UNAVAILABLE only while it stops.
    public var isWorkerStopping: Bool {
        isFromWorker && code == .unavailable
    }

    /// The status code, by gRPC's name and number.
    public var status: StatusCode {
        StatusCode(rawValue: code.rawValue) ?? .unknown
    }

    public var description: String { "\(code): \(message)" }
}
