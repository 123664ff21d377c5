/// A face mesh read in pixels of the upright image.
///
/// MediaPipe normalizes x by the image width, y by its height and z by the width too, so scaling
/// x and z by the width and y by the height puts all three axes in pixels.
struct PixelSpaceMesh: FacePoints {
    /// Mesh points 0–467 always; 468–477 (the two irises) when the mesh has them.
    let landmarks: [NormalizedLandmark]
    let width: Float
    let height: Float

    /// Whether the mesh has the iris points 468–477.
    var hasIris: Bool {
        landmarks.count >= MeshLayout.withIrisCount
    }

    /// Mesh point `index` in image pixels.
    func pixel(_ index: Int) -> PixelPoint {
        let landmark = landmarks[index]
        return PixelPoint(x: landmark.x * width, y: landmark.y * height)
    }

    func point(_ index: Int) -> SIMD3<Float> {
        let landmark = landmarks[index]
        return SIMD3(landmark.x * width, landmark.y * height, landmark.z * width)
    }
}

/// Sizes and fixed points of MediaPipe's face mesh numbering.
enum MeshLayout {
    /// Points of the face mesh proper.
    static let faceCount = 468
    /// Points with the two irises appended (468–472, then 473–477).
    static let withIrisCount = 478
    /// Centre of the iris of the subject's right eye (the image-left eye).
    static let subjectRightIrisCentre = 468
    /// Centre of the iris of the subject's left eye.
    static let subjectLeftIrisCentre = 473
}
