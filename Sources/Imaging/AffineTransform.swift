/// A 2-D affine map `(x, y) -> (m00 x + m01 y + m02, m10 x + m11 y + m12)`.
///
/// In this module a transform maps **output** pixel coordinates (of a tensor or
/// crop) to **source** image pixel coordinates, the direction a sampler needs;
/// ``inverted()`` gives the map from the source image into the output.
///
/// Pixel coordinates follow OpenCV's `warpAffine` / `warpPerspective`
/// convention, which MediaPipe's `ImageToTensorCalculator` inherits: integer
/// coordinates are pixel centres, so pixel `(i, j)` of the output samples the
/// source at `apply(x: i, y: j)` exactly.
package struct AffineTransform: Sendable, Hashable {
    /// Row 0: `x' = m00 x + m01 y + m02`.
    package var m00: Double
    /// Row 0: `x' = m00 x + m01 y + m02`.
    package var m01: Double
    /// Row 0: `x' = m00 x + m01 y + m02`.
    package var m02: Double
    /// Row 1: `y' = m10 x + m11 y + m12`.
    package var m10: Double
    /// Row 1: `y' = m10 x + m11 y + m12`.
    package var m11: Double
    /// Row 1: `y' = m10 x + m11 y + m12`.
    package var m12: Double

    /// Creates a transform from its six coefficients, row by row.
    package init(m00: Double, m01: Double, m02: Double, m10: Double, m11: Double, m12: Double) {
        self.m00 = m00
        self.m01 = m01
        self.m02 = m02
        self.m10 = m10
        self.m11 = m11
        self.m12 = m12
    }

    /// The transform that leaves every point where it is.
    package static let identity = AffineTransform(m00: 1, m01: 0, m02: 0, m10: 0, m11: 1, m12: 0)

    /// The image of the point `(x, y)`.
    package func apply(x: Double, y: Double) -> (x: Double, y: Double) {
        (m00 * x + m01 * y + m02, m10 * x + m11 * y + m12)
    }

    /// The transform that undoes this one, or nil if this one collapses the
    /// plane (determinant zero or not finite, e.g. a zero-sized crop).
    package func inverted() -> AffineTransform? {
        let determinant = m00 * m11 - m01 * m10
        guard determinant != 0, determinant.isFinite else { return nil }
        let a = m11 / determinant, b = -m01 / determinant
        let c = -m10 / determinant, d = m00 / determinant
        return AffineTransform(
            m00: a, m01: b, m02: -(a * m02 + b * m12),
            m10: c, m11: d, m12: -(c * m02 + d * m12)
        )
    }
}
