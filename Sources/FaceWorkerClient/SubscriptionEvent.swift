import FaceWorkerProtocol

/// What a subscription delivers: one event per answer the followed session's
/// frames get, in the order its producer gets them, and the subscription's
/// own news (lost events, reset, end).
package enum SubscriptionEvent: Sendable {
    /// A frame of the session was processed.
    case result(Faceworker_V1_FrameResult)
    /// A frame of the session was accepted but never processed.
    case dropped(Faceworker_V1_FrameDropped)
    /// A frame of the session was refused or failed, with its timestamp.
    case failed(timestampMs: Int64, FaceWorkerError)
    /// This subscriber did not read in time and lost `count` events just
    /// before the next one.
    case missed(count: UInt64)
    /// The producer reset the session: tracking starts again and timestamps
    /// may restart.
    case reset
    /// The last event: the subscription is over, for `reason`.
    case ended(Faceworker_V1_SessionEnded.Reason)
    /// The client lost its worker and subscribed again on a new one (or gave
    /// up, see `WorkerOutage.error`, and the sequence throws it next): once
    /// per outage, before any event of the new worker. The producer's session
    /// was opened again there, so tracking starts anew. The old worker's
    /// `.ended(.workerStopping)` is not delivered.
    case workerRestarted(WorkerOutage)

    /// The event a worker's SessionEvent describes; nil for a kind this
    /// client does not know.
    init?(_ event: Faceworker_V1_SessionEvent) {
        switch event.event {
        case .frameResult(let result): self = .result(result)
        case .frameDropped(let dropped): self = .dropped(dropped)
        case .frameError(let status): self = .failed(timestampMs: status.timestampMs, FaceWorkerError(status))
        case .eventsMissed(let missed): self = .missed(count: missed.count)
        case .sessionReset: self = .reset
        case .sessionEnded(let ended): self = .ended(ended.reason)
        case nil: return nil
        }
    }
}
