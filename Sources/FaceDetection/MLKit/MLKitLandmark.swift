/// One ML Kit landmark of a face.
public struct MLKitLandmark: Sendable, Hashable {
    /// Which landmark this is.
    public var type: MLKitLandmarkType
    /// Where it is, in pixels of the upright image.
    public var position: PixelPoint

    /// Creates a landmark.
    public init(type: MLKitLandmarkType, position: PixelPoint) {
        self.type = type
        self.position = position
    }
}
