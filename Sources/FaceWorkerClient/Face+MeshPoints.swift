import FaceWorkerProtocol

extension Faceworker_V1_Face {
    /// The face mesh as points, read out of the packed `meshXyz` without
    /// copying it: 478 with `outputFaceMesh`, none otherwise.
    package var meshPoints: MeshPoints { MeshPoints(xyz: meshXyz) }
}

/// One point of a face mesh, as MediaPipe's NormalizedLandmark: `x` and `y`
/// are fractions of the upright image's width and height, `z` the depth
/// relative to the centre of the head on about the scale of `x`, smaller
/// being closer to the camera.
package typealias MeshPoint = SIMD3<Float>

/// A face mesh's points over the wire's packed floats (x, y, z of each
/// point in turn); a point is built only when it is read.
package struct MeshPoints: RandomAccessCollection, Sendable {
    /// The packed floats; a trailing partial point is not a point.
    package let xyz: [Float]

    /// Wraps packed floats: x, y, z of point 0, then of point 1, and so on.
    package init(xyz: [Float]) {
        self.xyz = xyz
    }

    package var startIndex: Int { 0 }
    package var endIndex: Int { xyz.count / 3 }

    package subscript(position: Int) -> MeshPoint {
        precondition(position >= 0 && position < endIndex, "mesh point \(position) is out of range 0..<\(endIndex)")
        return MeshPoint(x: xyz[3 * position], y: xyz[3 * position + 1], z: xyz[3 * position + 2])
    }
}
