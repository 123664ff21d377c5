import Foundation

/// One face found by the face detector (MediaPipe's `Detection`).
public struct Detection: Sendable, Equatable {
    /// The detector's confidence: one category, index 0.
    public let categories: [ResultCategory]
    /// The face's box in the upright image's pixels, rounded to whole
    /// pixels as MediaPipe gives it; it may extend past the edges.
    public let boundingBox: CGRect
    /// The six keypoints, normalized to the upright image: right eye, left
    /// eye, nose tip, mouth centre, right ear tragion, left ear tragion (the
    /// person's own left and right).
    public let keypoints: [NormalizedKeypoint]?

    /// A detection.
    public init(categories: [ResultCategory], boundingBox: CGRect, keypoints: [NormalizedKeypoint]?) {
        self.categories = categories
        self.boundingBox = boundingBox
        self.keypoints = keypoints
    }
}

/// One detector keypoint (MediaPipe's `NormalizedKeypoint`).
public struct NormalizedKeypoint: Sendable, Equatable {
    /// The position as fractions of the upright image's width and height.
    public let location: CGPoint
    /// What it marks: RIGHT_EYE, LEFT_EYE, NOSE_TIP, MOUTH_CENTER,
    /// RIGHT_EAR_TRAGION or LEFT_EAR_TRAGION.
    public let label: String?
    /// 0: the detector scores the face, not its keypoints.
    public let score: Float

    /// A keypoint.
    public init(location: CGPoint, label: String?, score: Float) {
        self.location = location
        self.label = label
        self.score = score
    }
}
