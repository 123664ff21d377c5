import FaceWorkerProtocol
import WorkerCore

extension ClientCalls {
    /// Subscribe: follows another connection's named session; the session
    /// answers with the SubscribeResponse, then events, under `callID`.
    func subscribe(callID: UInt64, _ request: Faceworker_V1_SubscribeRequest) {
        do throws(ClientSubscriptions.Refusal) {
            try subscriptions.subscribe(RequestToken(callID), name: request.name, ownSessions: sessions)
        } catch {
            fail(callID: callID, error.error, sessionID: error.sessionID)
        }
    }

    /// Unsubscribe: the subscription's SessionEnded (UNSUBSCRIBED) goes out,
    /// then the answer.
    func unsubscribe(callID: UInt64, _ subscriptionID: UInt64) {
        answering(callID) { () throws(CallError) in
            try subscriptions.unsubscribe(subscriptionID)
            outbox.send(Faceworker_V1_WorkerMessage(callID: callID, .unsubscribe(.with { $0.subscriptionID = subscriptionID })))
        }
    }
}
