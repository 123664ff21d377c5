import FaceDetection
import Imaging
import FaceWorkerProtocol
import Logging

/// The calls of one client: its sessions, subscriptions and shared-memory
/// buffers, and the answer to every call it makes, whichever door it came
/// through. A connection of the worker's own socket has one; so does each
/// call of the gRPC door, so a frame is checked, queued and answered the same
/// way, with the same codes and messages, from either.
///
/// Not thread-safe: its owner calls it from one place at a time (the
/// connection's event loop, a gRPC call's task). Answers leave through the
/// `Outbox`, from wherever they are made.
final class ClientCalls {
    let worker: WorkerContext
    let outbox: Outbox
    var logger: Logger
    /// The client's process, which a shared-memory handoff must come from.
    let peerPID: Int32?
    /// The client's sessions, whose state the scheduler keeps; a closed
    /// session leaves at once, so later frames for it are NOT_FOUND.
    var sessions: [UInt64: SessionChannel] = [:]
    /// The client's subscriptions to other clients' sessions.
    let subscriptions = ConnectionSubscriptions()
    /// The client's shared-memory buffers; nil for a client of the gRPC
    /// door, which cannot pass descriptors.
    let buffers: BufferTable?
    let admission: FrameAdmission
    private var ended = false

    /// Calls answered through `outbox`; `peerPID` nil for a door that cannot
    /// pass descriptors, whose clients have no shared memory.
    ///
    /// - Throws: `ImagingError` when no JPEG decoder can be made.
    init(worker: WorkerContext, outbox: Outbox, peerPID: Int32?, logger: Logger) throws(ImagingError) {
        self.worker = worker
        self.outbox = outbox
        self.peerPID = peerPID
        self.logger = logger
        let limits = worker.configuration.limits
        buffers = peerPID.map { _ in
            BufferTable(maxBuffers: limits.maxBuffersPerConnection, maxMappedBytes: limits.maxMappedBytesPerConnection,
                        counters: worker.sharedMemory.counters, logger: logger)
        }
        admission = try FrameAdmission(maxPixels: limits.maxPixels, buffers: buffers)
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
            return Faceworker_V1_WorkerMessage(callID: callID, .getStats(worker.statistics()))
        case .openSession(let request):
            openSession(callID: callID, request)
        case .processFrame(let request):
            processFrame(callID: callID, request)
        case .closeSession(let request):
            closeSession(callID: callID, request.sessionID)
        case .resetSession(let request):
            resetSession(callID: callID, request.sessionID)
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
        worker.scheduler.remove(sessions.keys)
        endSharing()
        closeBuffers()
        defer { sessions.removeAll() }
        return sessions.count
    }

    /// Answers a call with an error, after the answers already sent.
    func fail(callID: UInt64, _ error: CallError, sessionID: UInt64? = nil, timestampMs: Int64? = nil) {
        logRefusal(callID: callID, error, sessionID: sessionID)
        outbox.send(.failure(callID: callID, error, sessionID: sessionID, timestampMs: timestampMs))
    }

    /// One line per refused call, when it is refused (its answer may follow later).
    func logRefusal(callID: UInt64, _ error: CallError, sessionID: UInt64?) {
        var metadata: Logger.Metadata = ["call": "\(callID)", "code": "\(error.code)", "message": "\(error.message)"]
        if let sessionID { metadata["session"] = "\(sessionID)" }
        logger.info("call refused", metadata: metadata)
        worker.stats.recordError(error.code)
    }
}
