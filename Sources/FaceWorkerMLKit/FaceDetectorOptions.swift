import FaceWorkerClient
import FaceWorkerProtocol
import Foundation

/// How a ``FaceDetector`` detects (ML Kit's `FaceDetectorOptions`).
public final class FaceDetectorOptions {
    /// Speed (the default) or accuracy: the short-range or the full-range
    /// detector.
    public var performanceMode = FaceDetectorPerformanceMode.fast
    /// Whether faces carry the ten landmarks.
    public var landmarkMode = FaceDetectorLandmarkMode.none
    /// Whether faces carry the fifteen contours (every face does, not only
    /// the most prominent one).
    public var contourMode = FaceDetectorContourMode.none
    /// Whether faces carry smiling and eyes-open probabilities.
    public var classificationMode = FaceDetectorClassificationMode.none
    /// The smallest face reported, as its width over the image's, in [0, 1].
    public var minFaceSize: CGFloat = 0.1
    /// Whether faces carry a tracking ID that stays the same across the
    /// images the detector processes one after the other.
    public var isTrackingEnabled = false
    /// The worker's socket; nil follows the worker's own rule:
    /// `$FACEWORKER_SOCKET`, else `$XDG_RUNTIME_DIR/faceworker.sock`, else
    /// `/tmp/faceworker-<uid>.sock`.
    public var socketPath: String?
    /// How the detector finds its worker again after a restart; nil: it
    /// does not, and every call after the loss fails.
    public var reconnect: ReconnectPolicy? = ReconnectPolicy()

    /// The defaults.
    public init() {}

    /// The session these options ask for. With tracking the images are a
    /// video's frames, whose timestamps the detector makes.
    var wire: Faceworker_V1_SessionOptions {
        var options = Faceworker_V1_SessionOptions()
        options.runningMode = isTrackingEnabled ? .video : .image
        options.performanceMode = performanceMode == .accurate ? .accurate : .fast
        options.landmarkMode = landmarkMode == .all ? .all : .none
        options.contourMode = contourMode == .all ? .all : .none
        options.classificationMode = classificationMode == .all ? .all : .none
        options.minFaceSize = Float(minFaceSize)
        options.trackingEnabled = isTrackingEnabled
        // ML Kit reports every face it finds.
        options.numFaces = 64
        return options
    }
}

/// Speed or accuracy.
public enum FaceDetectorPerformanceMode: Sendable {
    case fast, accurate
}

/// Whether to find landmarks.
public enum FaceDetectorLandmarkMode: Sendable {
    case none, all
}

/// Whether to find contours.
public enum FaceDetectorContourMode: Sendable {
    case none, all
}

/// Whether to classify faces (smiling, eyes open).
public enum FaceDetectorClassificationMode: Sendable {
    case none, all
}
