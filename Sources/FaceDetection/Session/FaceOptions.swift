/// Everything a session can be configured with: ML Kit's face detector options
/// and MediaPipe's Face Detector and Face Landmarker options, in one value.
///
/// Defaults follow the sources: ML Kit (fast, nothing extra, minFaceSize 0.1,
/// no tracking) and MediaPipe (image mode, confidences 0.5, suppression 0.3,
/// one face).
public struct FaceOptions: Sendable, Equatable {
    /// MediaPipe's running modes.
    public enum RunningMode: Sendable, Equatable {
        /// Independent images; no state between calls.
        case image
        /// Frames of one video, timestamps strictly increasing, answered in order.
        case video
        /// Frames from a live source; frames arriving while busy replace the waiting one.
        case liveStream
    }

    /// ML Kit's performance modes, which pick the detector model.
    public enum PerformanceMode: Sendable, Equatable {
        /// BlazeFace short range: faces within about 2 m, fastest.
        case fast
        /// BlazeFace full range: small and distant faces too.
        case accurate
    }

    public var runningMode: RunningMode = .image
    public var performanceMode: PerformanceMode = .fast
    /// ML Kit's landmark mode "all": the 10 landmark types.
    public var landmarks = false
    /// ML Kit's contour mode "all": the 15 contour types, for every face.
    public var contours = false
    /// ML Kit's classification mode "all": smiling and eyes-open probabilities.
    public var classification = false
    /// Smallest face to report, as its width over the image width (ML Kit).
    public var minFaceSize: Float = 0.1
    /// Whether faces keep a tracking ID across frames (video and live stream only).
    public var trackingEnabled = false
    /// Detector score threshold (MediaPipe).
    public var minDetectionConfidence: Float = 0.5
    /// Overlap above which detections are merged (MediaPipe).
    public var minSuppressionThreshold: Float = 0.3
    /// Most faces reported per frame (MediaPipe Face Landmarker's numFaces).
    public var numFaces = 1
    /// Landmark model presence score below which a face counts as lost.
    public var minFacePresenceConfidence: Float = 0.5
    /// Overlap (IoU) above which a new detection is the same face as a tracked one.
    public var minTrackingConfidence: Float = 0.5
    /// Return MediaPipe's 478 normalized 3-D landmarks.
    public var faceMesh = false
    /// Return MediaPipe's 4x4 facial transformation matrix.
    public var transformationMatrix = false
    /// While fewer than `numFaces` faces are followed by their landmarks, the
    /// detector runs on at most one frame in this many, so a one-face scene does
    /// not pay for the detector on every frame.
    public var detectorIntervalFrames = 5
    /// Frames a face may go unseen and still keep its tracking ID.
    public var maxMissedFrames = 3

    /// Options with every default.
    public init() {}

    /// Whether any requested output needs the face mesh (and so the landmark models).
    public var needsMesh: Bool {
        landmarks || contours || classification || faceMesh || transformationMatrix
    }

    /// Checks every value against its allowed range.
    public func validate() throws(FaceError) {
        func unit(_ value: Float, _ name: String) throws(FaceError) {
            guard value >= 0, value <= 1 else {
                throw .invalidArgument("\(name) must be between 0 and 1, got \(value)")
            }
        }
        try unit(minFaceSize, "minFaceSize")
        try unit(minDetectionConfidence, "minDetectionConfidence")
        try unit(minSuppressionThreshold, "minSuppressionThreshold")
        try unit(minFacePresenceConfidence, "minFacePresenceConfidence")
        try unit(minTrackingConfidence, "minTrackingConfidence")
        guard (1...64).contains(numFaces) else {
            throw .invalidArgument("numFaces must be between 1 and 64, got \(numFaces)")
        }
        guard (1...1000).contains(detectorIntervalFrames) else {
            throw .invalidArgument("detectorIntervalFrames must be between 1 and 1000, got \(detectorIntervalFrames)")
        }
        guard (0...1000).contains(maxMissedFrames) else {
            throw .invalidArgument("maxMissedFrames must be between 0 and 1000, got \(maxMissedFrames)")
        }
    }
}
