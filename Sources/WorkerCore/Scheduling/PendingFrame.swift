/// A frame a session accepted, waiting for an inference thread.
struct PendingFrame: Sendable {
    /// The request it answers.
    var request: RequestToken
    /// The frame, checked by admission.
    var frame: AdmittedFrame
    /// When the whole request had been read, for the queued and total times.
    var received: ContinuousClock.Instant
    /// The same moment on the wall clock, in microseconds since the Unix epoch.
    var receivedUnixMicros: Int64
}
