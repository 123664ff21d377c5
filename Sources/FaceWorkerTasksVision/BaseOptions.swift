import FaceWorkerClient

/// Which model a task runs and where its worker is (MediaPipe's
/// `BaseOptions`).
public final class BaseOptions {
    /// The model or bundle the worker should run for the task, by its file
    /// name (any directory before it is ignored: the worker holds the
    /// models). Nil or empty: the task's usual model (the short-range
    /// detector, or `face_landmarker.task`). A file the worker does not
    /// serve, or one that is not a model of the task, is an error when the
    /// task is created.
    ///
    /// A `FaceDetector` runs `face_detection_short_range.tflite` or
    /// `face_detection_full_range_sparse.tflite`; a `FaceLandmarker` runs
    /// `face_landmarker.task` or MediaPipe's legacy attention mesh,
    /// `face_landmark_with_attention.tflite` (the same 478 points, without
    /// blendshapes).
    public var modelAssetPath: String?
    /// The worker's socket; nil follows the worker's own rule:
    /// `$FACEWORKER_SOCKET`, else `$XDG_RUNTIME_DIR/faceworker.sock`, else
    /// `/tmp/faceworker-<uid>.sock`.
    public var socketPath: String?
    /// How the task finds its worker again after a restart; nil: it does
    /// not, and every call after the loss fails.
    public var reconnect: ReconnectPolicy? = ReconnectPolicy()

    /// The defaults.
    public init() {}
}
