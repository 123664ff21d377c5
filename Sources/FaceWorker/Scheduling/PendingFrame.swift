import FaceWorkerProtocol

/// A frame a session accepted, waiting for an inference thread.
struct PendingFrame: Sendable {
    /// The ProcessFrame call it answers.
    var callID: UInt64
    /// The frame as the client sent it.
    var frame: Faceworker_V1_Frame
    /// When the whole request had been read, for the queued and total times.
    var received: ContinuousClock.Instant
    /// The same moment on the wall clock, in microseconds since the Unix epoch.
    var receivedUnixMicros: Int64
    /// The error that answers it instead of a result, for a frame refused
    /// while earlier frames of its session were still waiting or running: it
    /// waits its turn so that the session's answers keep the frames' order.
    var refusal: Faceworker_V1_WorkerMessage?
}
