/// One ML Kit landmark of a face.
package struct MLKitLandmark: Sendable, Hashable {
    /// Which landmark this is.
    package var type: MLKitLandmarkType
    /// Where it is, in pixels of the upright image.
    package var position: PixelPoint

    /// Creates a landmark.
    package init(type: MLKitLandmarkType, position: PixelPoint) {
        self.type = type
        self.position = position
    }
}
