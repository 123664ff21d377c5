/// MediaPipe's weighted orthogonal Procrustes fit of the canonical face to a face.
///
/// The source points are fixed (canonical face vertices with their weights); targets come per
/// call. The fit is the similarity transform t ≈ s·R·p + translation minimising the weighted
/// squared error, solved as MediaPipe's procrustes_solver does (Akca, "Generalized Procrustes
/// analysis and its applications in photogrammetry", 2003, section 2.4). Only the weighted points
/// count, so a fit visits just those and needs no buffers.
struct ProcrustesBasis: Sendable {
    private let indices: [Int]
    private let weights: [Double]
    /// Each source point minus the sources' weighted centroid.
    private let centredSources: [SIMD3<Double>]
    private let centroid: SIMD3<Double>
    private let totalWeight: Double
    /// Σ w |s − centroid|², the denominator of the optimal scale.
    private let sourceSpread: Double

    /// A basis of the given points of a face, each with its weight (all weights ≥ 0, some > 0).
    init<Points: FacePoints>(points: Points, basis: [(index: Int, weight: Float)]) {
        indices = basis.map(\.index)
        weights = basis.map { Double($0.weight) }
        let sources = basis.map { entry in SIMD3<Double>(points.point(entry.index)) }
        totalWeight = weights.reduce(0, +)
        var sum = SIMD3<Double>.zero
        for (source, weight) in zip(sources, weights) {
            sum += weight * source
        }
        let centroid = sum / totalWeight
        self.centroid = centroid
        centredSources = sources.map { $0 - centroid }
        sourceSpread = zip(centredSources, weights).reduce(0) { $0 + $1.1 * ($1.0 * $1.0).sum() }
    }

    /// MediaPipe's basis: the canonical face model and its Procrustes weights.
    static let canonicalFace = ProcrustesBasis(points: CanonicalFace(), basis: CanonicalFaceModel.procrustesBasis)

    /// The best similarity transform from the sources to the targets, or nil when the targets are
    /// degenerate (MediaPipe's limits: correlation norm or scale not above 1e-9).
    /// - Parameter target: the target position of a mesh index.
    func fit(target: (Int) -> SIMD3<Double>) -> SimilarityTransform? {
        var correlation = Matrix3.zero
        var weightedSum = SIMD3<Double>.zero
        for k in indices.indices {
            let point = target(indices[k])
            correlation.addOuterProduct(point, centredSources[k], weight: weights[k])
            weightedSum += weights[k] * point
        }
        var energy: Double = 0
        for row in 0..<3 {
            for column in 0..<3 {
                energy += correlation[row, column] * correlation[row, column]
            }
        }
        guard energy.squareRoot() > Self.epsilon else { return nil }
        let rotation = OptimalRotation.rotation(correlation: correlation)
        var alignment: Double = 0
        for row in 0..<3 {
            for column in 0..<3 {
                alignment += rotation[row, column] * correlation[row, column]
            }
        }
        let scale = alignment / sourceSpread
        guard scale > Self.epsilon else { return nil }
        let translation = weightedSum / totalWeight - scale * (rotation * centroid)
        return SimilarityTransform(rotation: rotation, scale: scale, translation: translation)
    }

    private static let epsilon = 1e-9
}

/// p ↦ scale · rotation · p + translation.
struct SimilarityTransform: Sendable {
    let rotation: Matrix3
    let scale: Double
    let translation: SIMD3<Double>
}
