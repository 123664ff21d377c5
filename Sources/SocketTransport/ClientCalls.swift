import FaceDetection
import FaceWorkerProtocol
import Imaging
import Logging
import WorkerCore

/// The calls of one client of the worker's own socket: its sessions,
/// subscriptions and shared-memory buffers, and the answer to every call it
/// makes, in the socket's envelope. Its sessions and subscriptions are a
/// `ClientSessions` and a `ClientSubscriptions`, as the gRPC door's are, so
/// a call is checked, queued and answered the same way, with the same codes
/// and messages, from either door.
///
/// Not thread-safe: its owner calls it from one place at a time (the
/// connection's event loop). Answers leave through the connection's
/// `ConnectionOutbox`, from wherever they are made.
final class ClientCalls {
    let core: WorkerCore
    let outbox: ConnectionOutbox
    let logger: Logger
    /// The client's process, which a shared-memory handoff must come from.
    let peerPID: Int32
    /// The client's sessions.
    let sessions: ClientSessions
    /// The client's subscriptions to other clients' sessions.
    let subscriptions: ClientSubscriptions
    /// The client's shared-memory buffers.
    let buffers: BufferTable
    private let admission: FrameAdmission
    private var ended = false

    /// Calls of the client in process `peerPID`, answered through `outbox`.
    init(core: WorkerCore, outbox: ConnectionOutbox, peerPID: Int32, logger: Logger) {
        self.core = core
        self.outbox = outbox
        self.peerPID = peerPID
        self.logger = logger
        let limits = core.limits
        buffers = BufferTable(maxBuffers: limits.maxBuffersPerConnection, maxMappedBytes: limits.maxMappedBytesPerConnection,
                              counters: core.sharedMemory.counters, logger: logger)
        admission = FrameAdmission(maxPixels: limits.maxPixels, buffers: buffers)
        sessions = ClientSessions(core: core, logger: logger)
        subscriptions = ClientSubscriptions(core: core, output: outbox, logger: logger)
    }

    /// Answers one call. A call that needs nothing but the worker (Ping,
    /// GetStats) is answered by the return value, for the caller to send its
    /// quickest way; every other answer leaves through the outbox.
    @discardableResult
    func handle(_ message: Faceworker_V1_ClientMessage) -> Faceworker_V1_WorkerMessage? {
        let callID = message.callID
        switch message.kind {
        case .ping(let ping):
            return Faceworker_V1_WorkerMessage(callID: callID, .ping(Faceworker_V1_PingResponse(echoing: ping)))
        case .getStats:
            return Faceworker_V1_WorkerMessage(callID: callID, .getStats(Faceworker_V1_GetStatsResponse(core.statistics.snapshot())))
        case .openSession(let request):
            openSession(callID: callID, request)
        case .processFrame(let request):
            answering(callID, sessionID: request.sessionID, timestampMs: request.frame.timestampMs) { () throws(CallError) in
                try sessions.processFrame(RequestToken(callID), timestampMs: request.frame.timestampMs, sessionID: request.sessionID) {
                    admission.admit(request.frame)
                }
            }
        case .closeSession(let request):
            answering(callID, sessionID: request.sessionID) { () throws(CallError) in try sessions.close(RequestToken(callID), sessionID: request.sessionID) }
        case .resetSession(let request):
            answering(callID, sessionID: request.sessionID) { () throws(CallError) in try sessions.reset(RequestToken(callID), sessionID: request.sessionID) }
        case .subscribe(let request):
            subscribe(callID: callID, request)
        case .unsubscribe(let request):
            unsubscribe(callID: callID, request.subscriptionID)
        case .registerBuffer:
            registerBuffer(callID: callID)
        case .unregisterBuffer(let request):
            unregisterBuffer(callID: callID, request.bufferID)
        case nil:
            fail(callID: callID, CallError(.unimplemented, "the call is empty or of a kind this worker does not know (it speaks faceworker.v1)"))
        }
        return nil
    }

    /// The client is gone: its sessions are closed without answers, its
    /// subscriptions end, its buffers are unmapped. Once; later calls do
    /// nothing.
    ///
    /// - Returns: how many sessions it had open.
    @discardableResult
    func end() -> Int {
        guard !ended else { return 0 }
        ended = true
        subscriptions.end()
        let freed = sessions.end()
        closeBuffers()
        return freed
    }

    /// Answers a call with an error, after the answers already sent.
    func fail(callID: UInt64, _ error: CallError, sessionID: UInt64? = nil, timestampMs: Int64? = nil) {
        sessions.logRefusal(RequestToken(callID), error, sessionID: sessionID)
        outbox.send(.failure(callID: callID, error, sessionID: sessionID, timestampMs: timestampMs))
    }
}
