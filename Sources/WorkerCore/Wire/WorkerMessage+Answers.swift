import FaceWorkerProtocol

extension Faceworker_V1_WorkerMessage {
    /// An answer to `callID` carrying `kind`.
    package init(callID: UInt64, _ kind: OneOf_Kind) {
        self.init()
        self.callID = callID
        self.kind = kind
    }

    /// An error answer to `callID`; a frame's carries its timestamp.
    package static func failure(callID: UInt64, _ error: CallError, sessionID: UInt64? = nil, timestampMs: Int64? = nil) -> Self {
        Self(callID: callID, .error(Faceworker_V1_Status(error, sessionID: sessionID, timestampMs: timestampMs)))
    }
}

extension Faceworker_V1_Status {
    /// A status with a code, a message for people and, when the call was about
    /// one, the session.
    package init(_ code: Code, _ message: String, sessionID: UInt64? = nil) {
        self.init()
        self.code = code
        self.message = message
        if let sessionID { self.sessionID = sessionID }
    }

    /// The status of `error`; a frame's carries its timestamp.
    package init(_ error: CallError, sessionID: UInt64? = nil, timestampMs: Int64? = nil) {
        self.init(Code(error.code), error.message, sessionID: sessionID)
        if let timestampMs { self.timestampMs = timestampMs }
    }
}
