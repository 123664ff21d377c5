import FaceDetection

/// Work handed to an inference thread, with everything it needs without the
/// scheduler's lock: the session's pipeline, its tracker (moved out of the
/// scheduler until the thread gives it back) and where to send the answer.
struct FrameJob: Sendable {
    /// The session the work belongs to.
    var sessionID: UInt64
    /// The session's pipeline.
    var pipeline: any SessionPipeline
    /// Where the answer goes.
    var output: any SessionOutput
    /// A frame to process, or a refusal whose turn has come.
    var work: SessionWork
    /// The session's tracking state, updated in place by the pipeline.
    var tracker: FaceTracker
    /// Whether, when the frame was handed out, no other frame was running or
    /// waiting: its model runs may then use every core.
    var runsAlone: Bool
    /// Whether the frame counts in the worker's counters and metrics: not
    /// when it is the worker's own warm-up.
    var counted: Bool
}
