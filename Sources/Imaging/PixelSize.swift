/// The dimensions of an image, in pixels.
public struct PixelSize: Sendable, Hashable, CustomStringConvertible {
    /// Number of columns.
    public var width: Int
    /// Number of rows.
    public var height: Int

    /// Creates a size; no validation happens here, consumers check what they need.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public var description: String { "\(width)x\(height)" }
}
