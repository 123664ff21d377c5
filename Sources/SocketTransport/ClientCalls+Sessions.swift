import FaceWorkerProtocol
import WorkerCore

extension ClientCalls {
    /// OpenSession, answered in the socket's envelope; the session's answers
    /// go to the same outbox.
    func openSession(callID: UInt64, _ request: Faceworker_V1_OpenSessionRequest) {
        answering(callID) { () throws(CallError) in
            let (options, name) = try request.checked()
            let opening = try sessions.open(options: options, name: name, producer: outbox)
            outbox.send(Faceworker_V1_WorkerMessage(callID: callID, .openSession(Faceworker_V1_OpenSessionResponse(opening))))
        }
    }

    /// Makes a call of the client's sessions, whose answers leave through the
    /// session, or answers its refusal (about `sessionID`, and a frame's with
    /// its timestamp).
    func answering(_ callID: UInt64, sessionID: UInt64? = nil, timestampMs: Int64? = nil, _ call: () throws(CallError) -> Void) {
        do throws(CallError) {
            try call()
        } catch {
            fail(callID: callID, error, sessionID: sessionID, timestampMs: timestampMs)
        }
    }
}
