import FaceWorkerProtocol

/// What a live-stream session's `results` deliver, one per frame sent, in the
/// order the worker answers.
package enum LiveStreamEvent: Sendable {
    /// A processed frame.
    case result(Faceworker_V1_FrameResult)
    /// A frame the worker never processed: replaced by a newer one while it
    /// waited, or dropped by a reset or close.
    case dropped(Faceworker_V1_FrameDropped)
    /// A frame the worker refused, with the timestamp it was sent with.
    case failed(timestampMs: Int64, FaceWorkerError)
    /// The client lost its worker and is back on a new one (or gave up, see
    /// `WorkerOutage.error`): once per outage, after the drops of the frames
    /// the cut left unanswered and before any answer of the new worker. The
    /// session was opened again there, so tracking starts anew.
    case workerRestarted(WorkerOutage)
}
