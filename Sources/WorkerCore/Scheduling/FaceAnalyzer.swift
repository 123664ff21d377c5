import FaceDetection
import Imaging

/// The face pipeline as the core sees it: how many frames it runs at once,
/// what a session may ask of it, and a session's pipeline. The worker's runs
/// MediaPipe's models on XNNPACK; the core's own tests run a fake one, with
/// no model files.
package protocol FaceAnalyzer: Sendable {
    /// How many frames run at once: the core starts one inference thread for each.
    var threads: Int { get }
    /// Why sessions that ask for the Face Landmarker are refused, or nil
    /// when they can be served.
    var faceLandmarkerProblem: String? { get }
    /// Makes inference thread `thread` ready to serve, so that no session's
    /// first frame pays for it. Called once on that thread before it serves.
    func warm(thread: Int) throws
    /// The pipeline for a session that asks for `options`; refuses options
    /// that are invalid or that it cannot serve.
    func pipeline(for options: FaceOptions) throws(FaceError) -> any SessionPipeline
}

/// One session's pipeline: the options it runs with, and how it processes
/// one of its frames.
package protocol SessionPipeline: Sendable {
    /// The session's options, validated.
    var options: FaceOptions { get }
    /// Processes one frame on inference thread `thread`, updating `tracker`;
    /// `runsAlone` says that no other frame runs or waits, so the frame may
    /// use every core.
    func process(_ pixels: FramePixels, orientation: ImageOrientation, timestampMs: Int64?, maxPixels: Int,
                 tracker: inout FaceTracker, thread: Int, runsAlone: Bool) throws(FaceError) -> FaceResult
}
