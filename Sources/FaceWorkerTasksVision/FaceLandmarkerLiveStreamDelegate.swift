/// What a ``FaceLandmarker`` in live-stream mode calls with each frame's
/// outcome (MediaPipe's `FaceLandmarkerLiveStreamDelegate`), on a serial
/// queue of the landmarker's own, one frame at a time, in the order the
/// worker answers. A frame replaced by a newer one before it was processed
/// gets no call.
public protocol FaceLandmarkerLiveStreamDelegate: AnyObject {
    /// A frame was processed (`result`), or failed (`error`, a
    /// ``TasksError``); a lost worker is told once per outage, as an error.
    func faceLandmarker(_ faceLandmarker: FaceLandmarker, didFinishDetection result: FaceLandmarkerResult?, timestampInMilliseconds: Int, error: (any Error)?)
}
