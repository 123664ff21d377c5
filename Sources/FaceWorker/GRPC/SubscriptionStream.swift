import FaceDetection
import FaceWorkerGRPC
import FaceWorkerProtocol
import GRPCCore
import Imaging
import Logging

/// One Subscribe call of the gRPC door: a subscription for the life of the
/// stream, made and bounded exactly as on the worker's own socket, whose
/// events are written to the stream.
struct SubscriptionStream {
    private static let subscribeCallID: UInt64 = 1

    let core: WorkerCore
    let logger: Logger

    /// Follows the named session until its SessionEnded is written or the
    /// client cancels (which ends the subscription).
    ///
    /// - Throws: `RPCError` with the status Subscribe would have got.
    func run(_ request: Faceworker_V1_SubscribeRequest, response: RPCWriter<Faceworker_V1_SubscriptionUpdate>) async throws {
        let (answers, continuation) = AsyncStream.makeStream(of: StreamOutbox.Answer.self)
        let calls: ClientCalls
        do throws(ImagingError) {
            calls = try ClientCalls(core: core, outbox: StreamOutbox(continuation), peerPID: nil, logger: logger)
        } catch {
            throw RPCError(CallError(FaceError(error)))
        }
        defer { calls.end() }
        calls.subscribe(callID: Self.subscribeCallID, request)
        try await withRPCCancellationHandler {
            for await answer in answers {
                defer { answer.written?() }
                switch answer.message.kind {
                case .subscribe(let subscribed):
                    try await response.write(.with { $0.subscribed = subscribed })
                case .sessionEvent(let event):
                    try await response.write(.with { $0.event = event })
                    if case .sessionEnded = event.event { return }
                case .error(let status):
                    throw RPCError(status)
                default:
                    continue
                }
            }
        } onCancelRPC: {
            continuation.finish()
        }
    }
}
