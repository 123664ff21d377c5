/// The rotation that best aligns centred source points with target points.
///
/// Among proper rotations R (no reflections) this maximizes Σ wᵢ tᵢ · R sᵢ, which is what the
/// weighted orthogonal Procrustes problem needs. MediaPipe gets the same R from an SVD of the
/// correlation with a sign fix against reflections; here it comes from Horn's unit-quaternion
/// method ("Closed-form solution of absolute orientation using unit quaternions", 1987), the
/// eigenvector of the largest eigenvalue of a symmetric 4x4 matrix, which is a proper rotation by
/// construction and needs only a small fixed-size eigen solver.
enum OptimalRotation {
    /// The rotation for the correlation H = Σ wᵢ tᵢ sᵢᵀ (targets times centred sources).
    static func rotation(correlation h: Matrix3) -> Matrix3 {
        // Horn's S_ab = Σ w s_a t_b is Hᵀ.
        let sxx = h[0, 0], sxy = h[1, 0], sxz = h[2, 0]
        let syx = h[0, 1], syy = h[1, 1], syz = h[2, 1]
        let szx = h[0, 2], szy = h[1, 2], szz = h[2, 2]
        var n = SymmetricMatrix4()
        n[0, 0] = sxx + syy + szz
        n[0, 1] = syz - szy
        n[0, 2] = szx - sxz
        n[0, 3] = sxy - syx
        n[1, 1] = sxx - syy - szz
        n[1, 2] = sxy + syx
        n[1, 3] = szx + sxz
        n[2, 2] = -sxx + syy - szz
        n[2, 3] = syz + szy
        n[3, 3] = -sxx - syy + szz
        let q = n.eigenvectorOfLargestEigenvalue()
        return rotation(quaternion: q / (q * q).sum().squareRoot())
    }

    /// The rotation matrix of a unit quaternion (w, x, y, z).
    private static func rotation(quaternion q: SIMD4<Double>) -> Matrix3 {
        let (w, x, y, z) = (q[0], q[1], q[2], q[3])
        return Matrix3(
            SIMD3(w * w + x * x - y * y - z * z, 2 * (x * y - w * z), 2 * (x * z + w * y)),
            SIMD3(2 * (x * y + w * z), w * w - x * x + y * y - z * z, 2 * (y * z - w * x)),
            SIMD3(2 * (x * z - w * y), 2 * (y * z + w * x), w * w - x * x - y * y + z * z)
        )
    }
}
