/// The dimensions of an image, in pixels.
package struct PixelSize: Sendable, Hashable, CustomStringConvertible {
    /// Number of columns.
    package var width: Int
    /// Number of rows.
    package var height: Int

    /// Creates a size; no validation happens here, consumers check what they need.
    package init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    package var description: String { "\(width)x\(height)" }
}
