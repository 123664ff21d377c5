/// What a ``FaceDetector`` in live-stream mode calls with each frame's
/// outcome (MediaPipe's `FaceDetectorLiveStreamDelegate`), on a serial queue
/// of the detector's own, one frame at a time, in the order the worker
/// answers. A frame replaced by a newer one before it was processed gets no
/// call.
public protocol FaceDetectorLiveStreamDelegate: AnyObject {
    /// A frame was processed (`result`), or failed (`error`, a
    /// ``TasksError``); a lost worker is told once per outage, as an error.
    func faceDetector(_ faceDetector: FaceDetector, didFinishDetection result: FaceDetectorResult?, timestampInMilliseconds: Int, error: (any Error)?)
}
