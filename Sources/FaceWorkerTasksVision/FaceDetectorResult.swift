/// The faces the detector found on one image (MediaPipe's
/// `FaceDetectorResult`); empty when there is none.
public struct FaceDetectorResult: Sendable, Equatable {
    /// The faces, highest score first.
    public let detections: [Detection]
    /// The image's timestamp (0 in image mode).
    public let timestampInMilliseconds: Int

    /// A result.
    public init(detections: [Detection], timestampInMilliseconds: Int) {
        self.detections = detections
        self.timestampInMilliseconds = timestampInMilliseconds
    }
}
