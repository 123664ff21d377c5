/// One of a face's fifteen contours (ML Kit's `FaceContour`): a fixed
/// number of points along a feature.
public struct FaceContour: Sendable, Equatable {
    /// Which contour.
    public let type: FaceContourType
    /// Its points, in the upright image's pixels.
    public let points: [VisionPoint]
}

/// ML Kit's fifteen contours, with their point counts; left and right are
/// the person's own.
public enum FaceContourType: String, Sendable, CaseIterable {
    /// The face oval, 36 points.
    case face
    /// 5 points each.
    case leftEyebrowTop, leftEyebrowBottom, rightEyebrowTop, rightEyebrowBottom
    /// 16 points each.
    case leftEye, rightEye
    /// 11 points, corner to corner.
    case upperLipTop
    /// 9 points each.
    case upperLipBottom, lowerLipTop, lowerLipBottom
    /// 2 points.
    case noseBridge
    /// 3 points, the first the centre.
    case noseBottom
    /// 1 point each.
    case leftCheek, rightCheek
}
