/// A symmetric 4x4 matrix of doubles, with the cyclic Jacobi eigenvalue method.
struct SymmetricMatrix4: Sendable {
    private var elements = SIMD16<Double>()

    /// Element (row, column); setting it sets its mirror image too.
    subscript(row: Int, column: Int) -> Double {
        get { elements[4 * row + column] }
        set {
            elements[4 * row + column] = newValue
            elements[4 * column + row] = newValue
        }
    }

    /// A unit eigenvector of the largest eigenvalue.
    ///
    /// Jacobi rotations zero the off-diagonal elements one at a time; each sweep over all six
    /// roughly squares their size, so a handful of sweeps reach double precision.
    func eigenvectorOfLargestEigenvalue() -> SIMD4<Double> {
        var a = elements
        var vectors = SIMD16<Double>(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1)
        let size = (a * a).sum()
        for _ in 0..<Self.maximumSweeps {
            var offDiagonal: Double = 0
            for p in 0..<3 {
                for q in (p + 1)..<4 {
                    offDiagonal += a[4 * p + q] * a[4 * p + q]
                }
            }
            if offDiagonal <= size * Self.tolerance {
                break
            }
            for p in 0..<3 {
                for q in (p + 1)..<4 {
                    Self.rotate(&a, &vectors, p, q)
                }
            }
        }
        var best = 0
        for i in 1..<4 where a[5 * i] > a[5 * best] {
            best = i
        }
        return SIMD4(vectors[best], vectors[4 + best], vectors[8 + best], vectors[12 + best])
    }

    private static let maximumSweeps = 32
    /// Off-diagonal energy, relative to the whole matrix's, below which it counts as diagonal.
    private static let tolerance = 1e-30

    /// One Jacobi rotation in the (p, q) plane that zeroes a[p][q] (Numerical Recipes' form),
    /// accumulated into the eigenvector columns.
    private static func rotate(_ a: inout SIMD16<Double>, _ vectors: inout SIMD16<Double>, _ p: Int, _ q: Int) {
        let apq = a[4 * p + q]
        guard apq != 0 else { return }
        let theta = (a[5 * q] - a[5 * p]) / (2 * apq)
        let t = (theta >= 0 ? 1 : -1) / (abs(theta) + (theta * theta + 1).squareRoot())
        let c = 1 / (t * t + 1).squareRoot()
        let s = t * c
        for k in 0..<4 {
            let akp = a[4 * k + p], akq = a[4 * k + q]
            a[4 * k + p] = c * akp - s * akq
            a[4 * k + q] = s * akp + c * akq
        }
        for k in 0..<4 {
            let apk = a[4 * p + k], aqk = a[4 * q + k]
            a[4 * p + k] = c * apk - s * aqk
            a[4 * q + k] = s * apk + c * aqk
        }
        for k in 0..<4 {
            let vkp = vectors[4 * k + p], vkq = vectors[4 * k + q]
            vectors[4 * k + p] = c * vkp - s * vkq
            vectors[4 * k + q] = s * vkp + c * vkq
        }
    }
}
