import FaceWorkerProtocol

/// How a ``FaceDetector`` runs (MediaPipe's `FaceDetectorOptions`).
public final class FaceDetectorOptions {
    /// The model and the worker.
    public var baseOptions = BaseOptions()
    /// Image (the default), video or live stream.
    public var runningMode = RunningMode.image
    /// The lowest detector score, in [0, 1], for a face to be reported.
    public var minDetectionConfidence: Float = 0.5
    /// The overlap (intersection over union), in [0, 1], above which two
    /// detections are taken as one face.
    public var minSuppressionThreshold: Float = 0.3
    /// Live-stream mode's receiver of results, held weakly; required in
    /// that mode, refused in the others.
    public weak var faceDetectorLiveStreamDelegate: (any FaceDetectorLiveStreamDelegate)?

    /// The defaults.
    public init() {}

    /// The session these options ask for.
    func request() throws(TasksError) -> SessionRequest {
        try SessionRequest.checkDelegate(faceDetectorLiveStreamDelegate != nil, runningMode: runningMode)
        var options = Faceworker_V1_SessionOptions()
        options.runningMode = runningMode.wire
        options.minDetectionConfidence = minDetectionConfidence
        options.minSuppressionThreshold = minSuppressionThreshold
        // MediaPipe's face detector reports every face it finds.
        options.numFaces = Self.allFaces
        return SessionRequest(
            options: options, runningMode: runningMode, socketPath: baseOptions.socketPath, reconnect: baseOptions.reconnect,
            modelAssetPath: baseOptions.modelAssetPath,
            models: [
                "face_detection_short_range.tflite": { (options: inout Faceworker_V1_SessionOptions) in options.performanceMode = .fast },
                "face_detection_full_range_sparse.tflite": { (options: inout Faceworker_V1_SessionOptions) in options.performanceMode = .accurate },
            ],
            task: "FaceDetector",
            optionNames: ["min_detection_confidence": "minDetectionConfidence", "min_suppression_threshold": "minSuppressionThreshold"])
    }

    /// The most faces a session may ask for (`num_faces`' maximum in the
    /// conformance file).
    static let allFaces: UInt32 = 64
}

extension RunningMode {
    var wire: Faceworker_V1_RunningMode {
        switch self {
        case .image: .image
        case .video: .video
        case .liveStream: .liveStream
        }
    }
}
