import Foundation

/// A point in the upright image's pixels (ML Kit's `VisionPoint`).
public struct VisionPoint: Sendable, Equatable {
    public let x: CGFloat
    public let y: CGFloat
    /// Nil: face points are two-dimensional.
    public let z: CGFloat?

    /// A point.
    public init(x: CGFloat, y: CGFloat, z: CGFloat? = nil) {
        self.x = x
        self.y = y
        self.z = z
    }
}
