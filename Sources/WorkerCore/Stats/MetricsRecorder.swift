import FaceDetection

/// Where frame and error counts go besides the worker's own counters: the
/// Prometheus metrics, when the worker serves them. The core counts; how the
/// counts are exposed is the metrics endpoint's business.
package protocol MetricsRecorder: Sendable {
    /// Records one processed frame's stage times for a session in `mode`.
    func recordProcessed(_ timings: StageDurations, mode: FaceOptions.RunningMode)
    /// Counts a frame answered with FrameDropped for `reason`.
    func recordDropped(_ reason: DropReason)
    /// Counts a frame answered with an error.
    func recordFailed()
    /// Counts an error status sent to a client, by its metric label.
    func recordError(label: String)
}
