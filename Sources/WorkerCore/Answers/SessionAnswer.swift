/// One answer of a session to one request: what became of a frame, or the
/// end of a reset or a close.
package struct SessionAnswer: Sendable {
    /// What the request got.
    enum Output: Sendable {
        /// The frame was processed.
        case result(ProcessedFrame)
        /// The frame will never be processed.
        case dropped(timestampMs: Int64, DropReason)
        /// The frame was refused, or failed in the pipeline.
        case failed(CallError, timestampMs: Int64)
        /// The session's tracking state and last timestamp are forgotten.
        case reset
        /// The session is closed; nothing of it follows.
        case closed
    }

    /// The request answered.
    var request: RequestToken
    /// The session that answers.
    var sessionID: UInt64
    /// What the request got.
    var output: Output
}
