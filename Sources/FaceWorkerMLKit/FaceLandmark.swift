/// One of a face's ten landmarks (ML Kit's `FaceLandmark`).
public struct FaceLandmark: Sendable, Equatable {
    /// Which landmark.
    public let type: FaceLandmarkType
    /// Where, in the upright image's pixels.
    public let position: VisionPoint
}

/// ML Kit's ten landmarks; left and right are the person's own.
public enum FaceLandmarkType: String, Sendable, CaseIterable {
    case mouthBottom, mouthLeft, mouthRight, leftEye, rightEye, leftEar, rightEar, leftCheek, rightCheek, noseBase
}
