import Foundation

/// A face's pose from MediaPipe's face geometry: the similarity transform from the canonical face
/// model (centimetres, x toward the image's right, y up, z out of the face) into the camera's
/// metric space (centimetres, x toward the image's right, y up, z toward the viewer).
package struct FacePose: Sendable, Hashable {
    let rotation: Matrix3
    /// The model's scale in the fit; close to 1, since the metric points were rescaled to the
    /// model's size before the last fit.
    package let scale: Float
    /// Where the canonical face's origin lands, in centimetres; z is negative in front of the camera.
    package let translation: SIMD3<Float>

    init(_ transform: SimilarityTransform) {
        rotation = transform.rotation
        scale = Float(transform.scale)
        translation = SIMD3<Float>(transform.translation)
    }

    /// MediaPipe's facial transformation matrix, row-major: the upper-left 3x3 is scale times
    /// rotation, the last column the translation, the last row 0, 0, 0, 1. (MediaPipe's
    /// MatrixData is column-major; this is the same matrix read by rows.)
    package var transformationMatrix: [Float] {
        var matrix = [Float](repeating: 0, count: 16)
        for row in 0..<3 {
            for column in 0..<3 {
                matrix[4 * row + column] = scale * Float(rotation[row, column])
            }
            matrix[4 * row + 3] = translation[row]
        }
        matrix[15] = 1
        return matrix
    }

    /// The rotation as ML Kit's head Euler angles (see `EulerAngles` for the decomposition).
    package var eulerAngles: EulerAngles {
        let degrees = 180 / Double.pi
        let sinePitch = min(1, max(-1, rotation[1, 2]))
        return EulerAngles(
            x: Float(asin(sinePitch) * degrees),
            y: Float(atan2(rotation[0, 2], rotation[2, 2]) * degrees),
            z: Float(atan2(rotation[1, 0], rotation[1, 1]) * degrees)
        )
    }
}
