import FaceWorkerProtocol

/// One loss of the worker by a client that reconnects, told once per outage
/// in each session's `results` and each subscription's events.
public struct WorkerOutage: Sendable, Hashable {
    /// Why the connection was lost (UNAVAILABLE: the worker closed it).
    public var cause: FaceWorkerError
    /// From the loss until the client was back, or gave up.
    public var duration: Duration
    /// The session's frames dropped with `REASON_WORKER_RESTARTED` in this
    /// outage: those sent before the cut and never answered, those a
    /// stopping worker refused, and those sent while the client reconnected.
    /// A frame awaited with `process` is counted too; its call threw
    /// UNAVAILABLE instead. Always 0 for a subscription.
    public var droppedFrames: Int
    /// Nil when the client is back on a worker; otherwise why it gave up (the
    /// deadline passed, or the worker refused a session's options or speaks
    /// another protocol), which every later call throws.
    public var error: FaceWorkerError?

    /// Creates a notice.
    public init(cause: FaceWorkerError, duration: Duration, droppedFrames: Int, error: FaceWorkerError? = nil) {
        self.cause = cause
        self.duration = duration
        self.droppedFrames = droppedFrames
        self.error = error
    }
}
