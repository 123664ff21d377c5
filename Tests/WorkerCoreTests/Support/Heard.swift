import FaceWorkerProtocol

/// What a producer or a subscriber heard about one frame (or a reset), in a
/// form both sides can be compared in.
enum Heard: Equatable, CustomStringConvertible {
    case result(Int64)
    case dropped(Int64, Faceworker_V1_FrameDropped.Reason)
    case failed(Int64, Faceworker_V1_Status.Code)
    case reset

    /// What the producer heard in `answer`; nil for an answer that is not
    /// about the session's frames.
    init?(answer: Faceworker_V1_WorkerMessage) {
        switch answer.kind {
        case .frameResult(let result): self = .result(result.timestampMs)
        case .frameDropped(let dropped): self = .dropped(dropped.timestampMs, dropped.reason)
        case .error(let status) where status.optionalSessionID != nil: self = .failed(status.timestampMs, status.code)
        case .resetSession: self = .reset
        default: return nil
        }
    }

    /// What a subscriber heard in `event`; nil for the subscription's own
    /// news (missed events, its end).
    init?(event: Faceworker_V1_SessionEvent) {
        switch event.event {
        case .frameResult(let result)?: self = .result(result.timestampMs)
        case .frameDropped(let dropped)?: self = .dropped(dropped.timestampMs, dropped.reason)
        case .frameError(let status)?: self = .failed(status.timestampMs, status.code)
        case .sessionReset?: self = .reset
        case .eventsMissed?, .sessionEnded?, nil: return nil
        }
    }

    var description: String {
        switch self {
        case .result(let timestamp): "result \(timestamp)"
        case .dropped(let timestamp, let reason): "dropped \(timestamp) \(reason)"
        case .failed(let timestamp, let code): "failed \(timestamp) \(code)"
        case .reset: "reset"
        }
    }
}
