import FaceDetection

/// A processed frame: the pipeline's result and how long each stage took.
package struct ProcessedFrame: Sendable {
    /// The frame's timestamp.
    var timestampMs: Int64
    /// The faces found, and what the pipeline reports about the image.
    var result: FaceResult
    /// The frame's stage times.
    var timings: StageDurations
}
