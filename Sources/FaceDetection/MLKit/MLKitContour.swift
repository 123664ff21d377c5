/// One ML Kit contour of a face.
public struct MLKitContour: Sendable, Hashable {
    /// Which contour this is.
    public var type: MLKitContourType
    /// Its points in order, in pixels of the upright image; `type.pointCount` of them.
    public var points: [PixelPoint]

    /// Creates a contour.
    public init(type: MLKitContourType, points: [PixelPoint]) {
        self.type = type
        self.points = points
    }
}
