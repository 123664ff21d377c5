/// Face points in the face mesh's numbering, as 3-D positions whose three axes share one unit,
/// so that distances and angles between them mean the same in every direction.
protocol FacePoints {
    /// The position of mesh point `index`.
    func point(_ index: Int) -> SIMD3<Float>
}

extension FacePoints {
    /// The distance between two mesh points.
    func distance(_ a: Int, _ b: Int) -> Float {
        (point(a) - point(b)).norm
    }
}

extension SIMD3 where Scalar == Float {
    /// The Euclidean length of the vector.
    var norm: Float {
        (self * self).sum().squareRoot()
    }
}
