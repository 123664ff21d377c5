/// A point in the upright image, in pixels, origin at the top-left, y down.
package struct PixelPoint: Sendable, Hashable {
    package var x: Float
    package var y: Float

    /// Creates a point.
    package init(x: Float, y: Float) {
        self.x = x
        self.y = y
    }
}

/// A landmark in MediaPipe's normalized form: x and y as fractions of the upright
/// image's width and height, z as depth relative to the head centre in units of
/// roughly the image width (smaller is closer to the camera).
package struct NormalizedLandmark: Sendable, Hashable {
    package var x: Float
    package var y: Float
    package var z: Float

    /// Creates a landmark.
    package init(x: Float, y: Float, z: Float = 0) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// The landmark's position in pixels of an image of the given size.
    package func pixel(width: Int, height: Int) -> PixelPoint {
        PixelPoint(x: x * Float(width), y: y * Float(height))
    }
}

/// An axis-aligned rectangle in pixels of the upright image.
package struct PixelRect: Sendable, Hashable {
    package var x: Float
    package var y: Float
    package var width: Float
    package var height: Float

    /// Creates a rectangle from its top-left corner and size.
    package init(x: Float, y: Float, width: Float, height: Float) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}
