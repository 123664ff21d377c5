import FaceDetection

/// One frame handed to an inference thread, with everything it needs to
/// process it without the scheduler's lock: the session's pipeline, its
/// state (moved out of the scheduler until the thread gives it back) and
/// where to send the answer.
struct FrameJob: Sendable {
    /// The session the frame belongs to.
    var sessionID: UInt64
    /// The session's pipeline.
    var pipeline: FacePipeline
    /// Where the answer goes.
    var outbox: Outbox
    /// The frame.
    var frame: PendingFrame
    /// The session's tracking state, updated in place by the pipeline.
    var state: FaceSessionState
    /// Whether, when the frame was handed out, its session was the only one
    /// open and no other frame was running or waiting: its model runs may
    /// then use every core.
    var runsAlone: Bool
}
