/// A face's mesh points in MediaPipe's metric space (centimetres): each screen point pushed to its
/// reconstructed depth and back-projected along its camera ray, as in the last step of the face
/// geometry.
///
/// Unlike the image, this space has no perspective: a point nearer the camera is not drawn
/// outward, so lengths and angles on the face do not change as the head turns or moves off the
/// camera's axis.
struct MetricFace: FacePoints, Sendable {
    let projection: NearPlaneProjection
    /// The face's size on the near plane relative to the canonical face.
    let scale: Double

    func point(_ index: Int) -> SIMD3<Float> {
        SIMD3<Float>(projection.metricPoint(index, scale: scale))
    }
}
