import FaceWorkerProtocol

/// How a ``FaceLandmarker`` runs (MediaPipe's `FaceLandmarkerOptions`).
public final class FaceLandmarkerOptions {
    /// The model and the worker.
    public var baseOptions = BaseOptions()
    /// Image (the default), video or live stream.
    public var runningMode = RunningMode.image
    /// The most faces reported, 1 to 64.
    public var numFaces = 1
    /// The lowest detector score, in [0, 1], for a face to be found.
    public var minFaceDetectionConfidence: Float = 0.5
    /// The lowest face mesh presence score, in [0, 1]; in video and live
    /// stream a followed face at or below it is lost.
    public var minFacePresenceConfidence: Float = 0.5
    /// In video and live stream, the overlap (intersection over union), in
    /// [0, 1], above which a detection is taken as a followed face.
    public var minTrackingConfidence: Float = 0.5
    /// Report each face's 52 blendshape scores.
    public var outputFaceBlendshapes = false
    /// Report each face's 4x4 transformation matrix.
    public var outputFacialTransformationMatrixes = false
    /// Live-stream mode's receiver of results, held weakly; required in
    /// that mode, refused in the others.
    public weak var faceLandmarkerLiveStreamDelegate: (any FaceLandmarkerLiveStreamDelegate)?

    /// The defaults.
    public init() {}

    /// The session these options ask for.
    func request() throws(TasksError) -> SessionRequest {
        try SessionRequest.checkDelegate(faceLandmarkerLiveStreamDelegate != nil, runningMode: runningMode)
        var options = Faceworker_V1_SessionOptions()
        options.runningMode = runningMode.wire
        options.meshModel = .faceLandmarker
        options.outputFaceMesh = true
        options.outputFaceBlendshapes = outputFaceBlendshapes
        options.outputTransformationMatrix = outputFacialTransformationMatrixes
        // Past UInt32, the worker's own range check names the option.
        options.numFaces = UInt32(clamping: numFaces)
        options.minDetectionConfidence = minFaceDetectionConfidence
        options.minFacePresenceConfidence = minFacePresenceConfidence
        options.minTrackingConfidence = minTrackingConfidence
        return SessionRequest(
            options: options, runningMode: runningMode, socketPath: baseOptions.socketPath, reconnect: baseOptions.reconnect,
            modelAssetPath: baseOptions.modelAssetPath,
            models: [
                "face_landmarker.task": { (options: inout Faceworker_V1_SessionOptions) in options.meshModel = .faceLandmarker },
                "face_landmark_with_attention.tflite": { (options: inout Faceworker_V1_SessionOptions) in options.meshModel = .attentionMesh },
            ],
            task: "FaceLandmarker",
            optionNames: [
                "num_faces": "numFaces",
                "min_detection_confidence": "minFaceDetectionConfidence",
                "min_face_presence_confidence": "minFacePresenceConfidence",
                "min_tracking_confidence": "minTrackingConfidence",
                "output_face_blendshapes": "outputFaceBlendshapes",
            ])
    }
}
