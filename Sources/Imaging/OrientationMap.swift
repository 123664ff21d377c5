/// Upright pixel coordinates to stored ones, for a stored image of
/// `storedWidth x storedHeight` tagged with an orientation: the table of
/// ``ImageOrientation``, as `column = column0 + x * columnPerX + y * columnPerY`
/// and likewise for the row.
///
/// The sampler works in upright coordinates, exactly as it would on an
/// upright copy (same positions, same rounding, same border rule), and reads
/// each neighbour it needs through this map: the tensors are the bits an
/// upright copy would give, without the copy.
struct OrientationMap {
    private let column0: Int, columnPerX: Int, columnPerY: Int
    private let row0: Int, rowPerX: Int, rowPerY: Int

    /// `origin` is the stored pixel at the start of the memory read, which
    /// `stored(x:y:)` then counts from: (0, 0) unless only part of the stored
    /// image was decoded.
    init(_ orientation: ImageOrientation, storedWidth w: Int, storedHeight h: Int, origin: (column: Int, row: Int) = (0, 0)) {
        let column0: Int, row0: Int
        switch orientation {
        case .topLeft: (column0, columnPerX, columnPerY, row0, rowPerX, rowPerY) = (0, 1, 0, 0, 0, 1)
        case .topRight: (column0, columnPerX, columnPerY, row0, rowPerX, rowPerY) = (w - 1, -1, 0, 0, 0, 1)
        case .bottomRight: (column0, columnPerX, columnPerY, row0, rowPerX, rowPerY) = (w - 1, -1, 0, h - 1, 0, -1)
        case .bottomLeft: (column0, columnPerX, columnPerY, row0, rowPerX, rowPerY) = (0, 1, 0, h - 1, 0, -1)
        case .leftTop: (column0, columnPerX, columnPerY, row0, rowPerX, rowPerY) = (0, 0, 1, 0, 1, 0)
        case .rightTop: (column0, columnPerX, columnPerY, row0, rowPerX, rowPerY) = (0, 0, 1, h - 1, -1, 0)
        case .rightBottom: (column0, columnPerX, columnPerY, row0, rowPerX, rowPerY) = (w - 1, 0, -1, h - 1, -1, 0)
        case .leftBottom: (column0, columnPerX, columnPerY, row0, rowPerX, rowPerY) = (w - 1, 0, -1, 0, 1, 0)
        }
        self.column0 = column0 - origin.column
        self.row0 = row0 - origin.row
    }

    /// The stored column and row of upright pixel `(x, y)`.
    @inline(__always)
    func stored(x: Int, y: Int) -> (column: Int, row: Int) {
        (column0 &+ x &* columnPerX &+ y &* columnPerY, row0 &+ x &* rowPerX &+ y &* rowPerY)
    }
}
