/// What waits its turn in a session's queue.
enum SessionWork: Sendable {
    /// A frame to process.
    case frame(PendingFrame)
    /// The error of a frame refused while earlier frames of its session were
    /// still waiting or running: it waits its turn so that the session's
    /// answers keep the order in which the frames came.
    case refusal(request: RequestToken, timestampMs: Int64, CallError)
}
