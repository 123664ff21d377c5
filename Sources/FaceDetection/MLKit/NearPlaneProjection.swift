/// The face mesh's points on the camera's near plane, and their back-projections.
struct NearPlaneProjection: Sendable {
    let mesh: [NormalizedLandmark]
    let planeWidth: Double
    let planeHeight: Double
    let near: Double
    /// The mean near-plane depth of the 468 points: the face's depth origin.
    let depthOffset: Double

    init(mesh: [NormalizedLandmark], planeWidth: Double, planeHeight: Double, near: Double) {
        self.mesh = mesh
        self.planeWidth = planeWidth
        self.planeHeight = planeHeight
        self.near = near
        var depth: Double = 0
        for index in 0..<MeshLayout.faceCount {
            depth += Double(mesh[index].z)
        }
        depthOffset = depth / Double(MeshLayout.faceCount) * planeWidth
    }

    /// Point `index` on the near plane, centred on the optical axis, y up, depth scaled like x
    /// (larger is farther).
    func screenPoint(_ index: Int) -> SIMD3<Double> {
        let landmark = mesh[index]
        return SIMD3(
            (Double(landmark.x) - 0.5) * planeWidth,
            (0.5 - Double(landmark.y)) * planeHeight,
            Double(landmark.z) * planeWidth
        )
    }

    /// The near-plane point as it is, in the right-handed metric frame (depth negated).
    func flatPoint(_ index: Int) -> SIMD3<Double> {
        let point = screenPoint(index)
        return SIMD3(point.x, point.y, -point.z)
    }

    /// The point back-projected to metric space for a face `scale` times the canonical size on
    /// the near plane.
    func metricPoint(_ index: Int, scale: Double) -> SIMD3<Double> {
        let point = screenPoint(index)
        let depth = (point.z - depthOffset + near) / scale
        return SIMD3(point.x * depth / near, point.y * depth / near, -depth)
    }
}
