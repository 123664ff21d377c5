/// A rectangle of whole pixels of an image: the columns and rows it spans.
package struct PixelRegion: Sendable, Hashable, CustomStringConvertible {
    /// The columns, left to right.
    package var columns: Range<Int>
    /// The rows, top to bottom.
    package var rows: Range<Int>

    /// The pixels in `columns` and `rows`.
    package init(columns: Range<Int>, rows: Range<Int>) {
        self.columns = columns
        self.rows = rows
    }

    /// The whole of an image of `size`.
    package init(_ size: PixelSize) {
        self.init(columns: 0..<size.width, rows: 0..<size.height)
    }

    /// Number of pixels.
    package var area: Int { columns.count * rows.count }

    /// Whether every pixel of `other` is in this region.
    package func contains(_ other: PixelRegion) -> Bool {
        columns.lowerBound <= other.columns.lowerBound && other.columns.upperBound <= columns.upperBound
            && rows.lowerBound <= other.rows.lowerBound && other.rows.upperBound <= rows.upperBound
    }

    /// The smallest region holding both.
    package func union(_ other: PixelRegion) -> PixelRegion {
        PixelRegion(
            columns: min(columns.lowerBound, other.columns.lowerBound)..<max(columns.upperBound, other.columns.upperBound),
            rows: min(rows.lowerBound, other.rows.lowerBound)..<max(rows.upperBound, other.rows.upperBound))
    }

    /// This region grown by `margin` pixels on every side, then cut to an image of `size`.
    package func expanded(by margin: Int, within size: PixelSize) -> PixelRegion {
        PixelRegion(
            columns: max(0, columns.lowerBound - margin)..<min(size.width, columns.upperBound + margin),
            rows: max(0, rows.lowerBound - margin)..<min(size.height, rows.upperBound + margin))
    }

    package var description: String {
        "columns \(columns.lowerBound)..<\(columns.upperBound), rows \(rows.lowerBound)..<\(rows.upperBound)"
    }
}
