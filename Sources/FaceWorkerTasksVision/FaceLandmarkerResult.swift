/// The faces the landmarker found on one image (MediaPipe's
/// `FaceLandmarkerResult`); empty arrays when there is none.
public struct FaceLandmarkerResult: Sendable, Equatable {
    /// Each face's 478 points: the face mesh's 468, then the iris of the
    /// person's right eye (468 its centre) and of the left eye (473).
    public let faceLandmarks: [[NormalizedLandmark]]
    /// Each face's 52 blendshape scores, with `outputFaceBlendshapes`.
    public let faceBlendshapes: [Classifications]
    /// Each face's transformation matrix, with
    /// `outputFacialTransformationMatrixes`.
    public let facialTransformationMatrixes: [TransformMatrix]
    /// The image's timestamp (0 in image mode).
    public let timestampInMilliseconds: Int

    /// A result.
    public init(faceLandmarks: [[NormalizedLandmark]], faceBlendshapes: [Classifications],
                facialTransformationMatrixes: [TransformMatrix], timestampInMilliseconds: Int) {
        self.faceLandmarks = faceLandmarks
        self.faceBlendshapes = faceBlendshapes
        self.facialTransformationMatrixes = facialTransformationMatrixes
        self.timestampInMilliseconds = timestampInMilliseconds
    }
}
