import Foundation

/// One face found on an image (ML Kit's `Face`). A `has…` flag tells
/// whether the value beside it was computed; an unset value reads 0.
public struct Face: Sendable, Equatable {
    /// The face's box in the upright image's pixels; it may extend past the
    /// edges.
    public let frame: CGRect
    /// The landmarks found, with `landmarkMode` `.all`.
    public let landmarks: [FaceLandmark]
    /// The contours found, with `contourMode` `.all`.
    public let contours: [FaceContour]

    public let hasHeadEulerAngleX: Bool
    /// Degrees, positive when the face turns up.
    public let headEulerAngleX: CGFloat
    public let hasHeadEulerAngleY: Bool
    /// Degrees, positive when the face turns toward the image's right.
    public let headEulerAngleY: CGFloat
    public let hasHeadEulerAngleZ: Bool
    /// Degrees, positive when the face rotates counter-clockwise.
    public let headEulerAngleZ: CGFloat

    public let hasSmilingProbability: Bool
    /// In [0, 1], with `classificationMode` `.all`.
    public let smilingProbability: CGFloat
    public let hasLeftEyeOpenProbability: Bool
    /// The person's left eye, in [0, 1].
    public let leftEyeOpenProbability: CGFloat
    public let hasRightEyeOpenProbability: Bool
    /// The person's right eye, in [0, 1].
    public let rightEyeOpenProbability: CGFloat

    public let hasTrackingID: Bool
    /// The same for the same face across the images the detector processes
    /// one after the other, with `isTrackingEnabled`.
    public let trackingID: Int

    /// The landmark of `type`, if found.
    public func landmark(ofType type: FaceLandmarkType) -> FaceLandmark? {
        landmarks.first { $0.type == type }
    }

    /// The contour of `type`, if found.
    public func contour(ofType type: FaceContourType) -> FaceContour? {
        contours.first { $0.type == type }
    }
}
