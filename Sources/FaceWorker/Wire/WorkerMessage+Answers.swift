import FaceWorkerProtocol

extension Faceworker_V1_WorkerMessage {
    /// An answer to `callID` carrying `kind`.
    init(callID: UInt64, _ kind: OneOf_Kind) {
        self.init()
        self.callID = callID
        self.kind = kind
    }

    /// An error answer to `callID`; a frame's carries its timestamp.
    static func failure(callID: UInt64, _ error: CallError, sessionID: UInt64? = nil, timestampMs: Int64? = nil) -> Self {
        var status = Faceworker_V1_Status(error.code, error.message, sessionID: sessionID)
        if let timestampMs { status.timestampMs = timestampMs }
        return Self(callID: callID, .error(status))
    }
}

extension Faceworker_V1_Status {
    /// A status with a code, a message for people and, when the call was about
    /// one, the session.
    init(_ code: Code, _ message: String, sessionID: UInt64? = nil) {
        self.init()
        self.code = code
        self.message = message
        if let sessionID { self.sessionID = sessionID }
    }
}
