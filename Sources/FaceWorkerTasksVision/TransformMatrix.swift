/// A face's 4x4 facial transformation matrix (MediaPipe's
/// `TransformMatrix`): it maps MediaPipe's canonical face model, in
/// centimetres, into the camera's 3-D space.
public struct TransformMatrix: Sendable, Equatable {
    /// The number of rows (4).
    public let rows: Int
    /// The number of columns (4).
    public let columns: Int
    /// The elements in row-major order: [row][column] is at
    /// `row * columns + column`.
    public let data: [Float]

    /// A matrix of `data` in row-major order.
    public init(rows: Int, columns: Int, data: [Float]) {
        precondition(data.count == rows * columns, "a \(rows)x\(columns) matrix has \(rows * columns) elements, not \(data.count)")
        self.rows = rows
        self.columns = columns
        self.data = data
    }

    /// The element at `row` and `column`.
    public func value(atRow row: Int, column: Int) -> Float {
        precondition((0..<rows).contains(row) && (0..<columns).contains(column), "(\(row), \(column)) is outside a \(rows)x\(columns) matrix")
        return data[row * columns + column]
    }
}
