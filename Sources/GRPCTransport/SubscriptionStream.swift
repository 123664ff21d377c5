import FaceWorkerGRPC
import FaceWorkerProtocol
import GRPCCore
import Logging
import WorkerCore

/// One Subscribe call of the gRPC door: a subscription for the life of the
/// stream, made and bounded exactly as on the worker's own socket, whose
/// events are written to the stream.
struct SubscriptionStream {
    let core: WorkerCore
    let logger: Logger

    /// Follows the named session until its end is written or the client
    /// cancels (which ends the subscription).
    ///
    /// - Throws: `RPCError` with the status Subscribe would have got.
    func run(_ request: Faceworker_V1_SubscribeRequest, response: RPCWriter<Faceworker_V1_SubscriptionUpdate>) async throws {
        let (updates, continuation) = AsyncStream.makeStream(of: SubscriptionStreamOutput.Update.self)
        let subscriptions = ClientSubscriptions(core: core, output: SubscriptionStreamOutput(continuation), logger: logger)
        defer { subscriptions.end() }
        // The call is the stream's one request.
        let token = RequestToken(1)
        do throws(ClientSubscriptions.Refusal) {
            try subscriptions.subscribe(token, name: request.name, ownSessions: nil)
        } catch {
            core.recordRefusal(token, error.error, sessionID: error.sessionID, logger: logger)
            throw RPCError(error.error)
        }
        try await withRPCCancellationHandler {
            for await update in updates {
                defer { update.written?() }
                try await response.write(update.update)
                if update.isLast { return }
            }
        } onCancelRPC: {
            continuation.finish()
        }
    }
}
