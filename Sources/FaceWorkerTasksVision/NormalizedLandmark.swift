/// One point of a face mesh (MediaPipe's `NormalizedLandmark`): `x` and `y`
/// are fractions of the upright image's width and height, `z` the depth
/// relative to the centre of the head, on about the scale of `x` (smaller is
/// closer to the camera).
public struct NormalizedLandmark: Sendable, Equatable {
    public let x: Float
    public let y: Float
    public let z: Float
    /// Nil: the face models give no visibility.
    public let visibility: Float?
    /// Nil: the face models give no per-point presence.
    public let presence: Float?

    /// A point.
    public init(x: Float, y: Float, z: Float, visibility: Float? = nil, presence: Float? = nil) {
        self.x = x
        self.y = y
        self.z = z
        self.visibility = visibility
        self.presence = presence
    }
}
