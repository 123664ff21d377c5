/// The ML Kit outputs of one face, computed from its face mesh. Each is nil unless it was asked
/// for (see `MLKitOutputs`) and could be computed.
package struct MLKitFaceFeatures: Sendable, Hashable {
    /// The ten landmarks, in `MLKitLandmarkType.allCases` order.
    package var landmarks: [MLKitLandmark]?
    /// The fifteen contours, in `MLKitContourType.allCases` order.
    package var contours: [MLKitContour]?
    /// The head pose; nil also when the face is too small to fit a pose to.
    package var eulerAngles: EulerAngles?
    /// Probability in [0, 1] that the face is smiling.
    package var smilingProbability: Float?
    /// Probability in [0, 1] that the subject's left eye is open.
    package var leftEyeOpenProbability: Float?
    /// Probability in [0, 1] that the subject's right eye is open.
    package var rightEyeOpenProbability: Float?
    /// MediaPipe's facial transformation matrix, 16 floats, row-major (see `FacePose`); nil also
    /// when the face is too small to fit a pose to.
    package var transformationMatrix: [Float]?

    /// Creates a value with the given outputs; everything left out is nil.
    package init(
        landmarks: [MLKitLandmark]? = nil,
        contours: [MLKitContour]? = nil,
        eulerAngles: EulerAngles? = nil,
        smilingProbability: Float? = nil,
        leftEyeOpenProbability: Float? = nil,
        rightEyeOpenProbability: Float? = nil,
        transformationMatrix: [Float]? = nil
    ) {
        self.landmarks = landmarks
        self.contours = contours
        self.eulerAngles = eulerAngles
        self.smilingProbability = smilingProbability
        self.leftEyeOpenProbability = leftEyeOpenProbability
        self.rightEyeOpenProbability = rightEyeOpenProbability
        self.transformationMatrix = transformationMatrix
    }

    /// The landmark of the given type, if landmarks were computed.
    package func landmark(_ type: MLKitLandmarkType) -> MLKitLandmark? {
        landmarks?.first { $0.type == type }
    }

    /// The contour of the given type, if contours were computed.
    package func contour(_ type: MLKitContourType) -> MLKitContour? {
        contours?.first { $0.type == type }
    }
}
