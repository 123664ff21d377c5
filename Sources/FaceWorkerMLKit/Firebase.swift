// The names of the Firebase-era ML Kit (`import Firebase`), which the
// older guides use, for the same types.

/// Firebase's name for ``FaceDetectorOptions``.
public typealias VisionFaceDetectorOptions = FaceDetectorOptions
/// Firebase's name for ``FaceDetector``.
public typealias VisionFaceDetector = FaceDetector
/// Firebase's name for ``Face``.
public typealias VisionFace = Face
/// Firebase's name for ``FaceLandmark``.
public typealias VisionFaceLandmark = FaceLandmark
/// Firebase's name for ``FaceContour``.
public typealias VisionFaceContour = FaceContour
/// Firebase's name for ``FaceDetectorPerformanceMode``.
public typealias VisionFaceDetectorPerformanceMode = FaceDetectorPerformanceMode
/// Firebase's name for ``FaceDetectorLandmarkMode``.
public typealias VisionFaceDetectorLandmarkMode = FaceDetectorLandmarkMode
/// Firebase's name for ``FaceDetectorContourMode``.
public typealias VisionFaceDetectorContourMode = FaceDetectorContourMode
/// Firebase's name for ``FaceDetectorClassificationMode``.
public typealias VisionFaceDetectorClassificationMode = FaceDetectorClassificationMode
/// Firebase's name for ``FaceDetectionCallback``.
public typealias VisionFaceDetectionCallback = FaceDetectionCallback

/// Firebase's entry point: `Vision.vision().faceDetector(options:)`.
public final class Vision: Sendable {
    private init() {}

    /// The one instance.
    public static func vision() -> Vision { shared }

    private static let shared = Vision()

    /// ``FaceDetector/faceDetector(options:)``.
    public func faceDetector(options: VisionFaceDetectorOptions) -> VisionFaceDetector {
        FaceDetector.faceDetector(options: options)
    }

    /// ``FaceDetector/faceDetector()``.
    public func faceDetector() -> VisionFaceDetector {
        FaceDetector.faceDetector()
    }
}

/// Firebase's image metadata: the orientation, under EXIF's names.
public final class VisionImageMetadata {
    /// The orientation; `.topLeft`, upright, by default.
    public var orientation = VisionDetectorImageOrientation.topLeft

    /// The defaults.
    public init() {}
}

/// Firebase's orientations, named after where the stored image's first row
/// and column end up; the raw value is the EXIF orientation tag.
public enum VisionDetectorImageOrientation: Int, Sendable, CaseIterable {
    case topLeft = 1, topRight, bottomRight, bottomLeft, leftTop, rightTop, rightBottom, leftBottom
}

extension FaceDetector {
    /// Firebase's name for ``process(_:completion:)``.
    public func detect(in image: VisionImage, completion: sending @escaping VisionFaceDetectionCallback) {
        process(image, completion: completion)
    }
}
