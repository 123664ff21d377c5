import FaceWorkerProtocol
import Synchronization

/// What a client keeps of an open session: the request that opened it, to
/// open it again on a restarted worker, the worker's current ID for it, and
/// its results sequence, which outlives the connection.
final class SessionRecord: Sendable {
    /// The request the session was opened with.
    let request: Faceworker_V1_OpenSessionRequest
    /// Where the session's live-stream events go.
    let results: AsyncStream<LiveStreamEvent>.Continuation
    private let state: Mutex<(id: UInt64, dropped: Int)>

    init(request: Faceworker_V1_OpenSessionRequest, id: UInt64, results: AsyncStream<LiveStreamEvent>.Continuation) {
        self.request = request
        self.results = results
        state = Mutex((id, 0))
    }

    /// The worker's ID for the session, on the current connection.
    var id: UInt64 { state.withLock { $0.id } }

    /// The session was opened again, under `id`.
    func reopened(as id: UInt64) {
        state.withLock { $0.id = id }
    }

    /// Reports a live frame the worker will never answer.
    func dropRestarted(timestampMs: Int64) {
        var notice = Faceworker_V1_FrameDropped()
        notice.sessionID = id
        notice.timestampMs = timestampMs
        notice.reason = .workerRestarted
        countDropped()
        results.yield(.dropped(notice))
    }

    /// Counts a frame lost to the outage whose caller heard of it otherwise.
    func countDropped() {
        state.withLock { $0.dropped += 1 }
    }

    /// Tells the session's results of the outage, with the frames it dropped.
    func tell(cause: FaceWorkerError, duration: Duration, error: FaceWorkerError?) {
        let dropped = state.withLock { state in
            defer { state.dropped = 0 }
            return state.dropped
        }
        results.yield(.workerRestarted(WorkerOutage(cause: cause, duration: duration, droppedFrames: dropped, error: error)))
    }
}
