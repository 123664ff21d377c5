/// One ML Kit contour of a face.
package struct MLKitContour: Sendable, Hashable {
    /// Which contour this is.
    package var type: MLKitContourType
    /// Its points in order, in pixels of the upright image; `type.pointCount` of them.
    package var points: [PixelPoint]

    /// Creates a contour.
    package init(type: MLKitContourType, points: [PixelPoint]) {
        self.type = type
        self.points = points
    }
}
