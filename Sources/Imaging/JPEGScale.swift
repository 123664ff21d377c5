/// The reductions TurboJPEG can apply inside the inverse DCT, which makes a
/// reduced decode much cheaper than a full decode followed by a resize.
public enum JPEGScale: Int, Sendable, Hashable, CaseIterable {
    /// Full resolution.
    case full = 1
    /// Half of each side.
    case half = 2
    /// A quarter of each side.
    case quarter = 4
    /// An eighth of each side.
    case eighth = 8

    /// Each side of the decoded image is the source side divided by this, rounded up.
    public var denominator: Int { rawValue }

    /// The decoded size for a source of `size`: each side divided by
    /// ``denominator`` and rounded up, as TurboJPEG's `TJSCALED` computes it.
    ///
    /// Decoded pixel `(x, y)` covers source pixels `x * d ..< (x + 1) * d` and
    /// `y * d ..< (y + 1) * d` (`d` = ``denominator``), so a point at pixel-edge
    /// coordinate `p` in the decoded image is at `p * d` in the source.
    public func scaledSize(of size: PixelSize) -> PixelSize {
        PixelSize(
            width: (size.width + denominator - 1) / denominator,
            height: (size.height + denominator - 1) / denominator
        )
    }

    /// The strongest reduction whose decoded sides are both at least
    /// `minimum`'s, or ``full`` if none is.
    public static func largestReduction(of size: PixelSize, keepingAtLeast minimum: PixelSize) -> JPEGScale {
        for scale in [JPEGScale.eighth, .quarter, .half] {
            let scaled = scale.scaledSize(of: size)
            if scaled.width >= minimum.width, scaled.height >= minimum.height {
                return scale
            }
        }
        return .full
    }
}
