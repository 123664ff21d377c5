/// One live-stream frame's outcome, as the task's delegate hears it: a
/// result, or an error (a frame the worker refused, or a lost worker, told
/// once per outage).
public struct LiveStreamDetection<Result: Sendable>: Sendable {
    /// The frame's result; nil with an error.
    public let result: Result?
    /// The frame's timestamp; for a lost worker, the last frame's sent.
    public let timestampInMilliseconds: Int
    /// What went wrong, a ``TasksError``; nil with a result.
    public let error: (any Error)?
}
