/// A 3x3 matrix of doubles, stored by rows.
struct Matrix3: Sendable, Hashable {
    var rows: (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>)

    init(_ row0: SIMD3<Double>, _ row1: SIMD3<Double>, _ row2: SIMD3<Double>) {
        rows = (row0, row1, row2)
    }

    static let zero = Matrix3(.zero, .zero, .zero)

    /// The element in row `row`, column `column`.
    subscript(row: Int, column: Int) -> Double {
        switch row {
        case 0: rows.0[column]
        case 1: rows.1[column]
        default: rows.2[column]
        }
    }

    /// The matrix times a column vector.
    static func * (matrix: Matrix3, vector: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(
            (matrix.rows.0 * vector).sum(),
            (matrix.rows.1 * vector).sum(),
            (matrix.rows.2 * vector).sum()
        )
    }

    /// Adds the outer product `column · rowᵀ` scaled by `weight`.
    mutating func addOuterProduct(_ column: SIMD3<Double>, _ row: SIMD3<Double>, weight: Double) {
        rows.0 += weight * column.x * row
        rows.1 += weight * column.y * row
        rows.2 += weight * column.z * row
    }

    static func == (lhs: Matrix3, rhs: Matrix3) -> Bool {
        lhs.rows.0 == rhs.rows.0 && lhs.rows.1 == rhs.rows.1 && lhs.rows.2 == rhs.rows.2
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(rows.0)
        hasher.combine(rows.1)
        hasher.combine(rows.2)
    }
}
