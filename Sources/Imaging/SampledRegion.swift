#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension AffineTransform {
    /// The upright pixels of an image of `imageSize` that sampling a
    /// `width x height` tensor through this transform may read, under either
    /// border rule: every position's 2x2 neighbourhood, and the pixel after it
    /// that the run path's 8-byte loads touch. Positions outside the image read
    /// its nearest edge pixels under the replicate rule, so the region is cut to
    /// the image and never empty; a position that is not finite makes it the
    /// whole image.
    package func sampledRegion(width: Int, height: Int, in imageSize: PixelSize) -> PixelRegion {
        let lastU = Double(max(width, 1) - 1), lastV = Double(max(height, 1) - 1)
        // Positions are affine in (u, v), so the corners bound them all.
        let corners = [apply(x: 0, y: 0), apply(x: lastU, y: 0), apply(x: 0, y: lastV), apply(x: lastU, y: lastV)]
        let limit = Double(1 << 30)
        guard corners.allSatisfy({ abs($0.x) < limit && abs($0.y) < limit }) else { return PixelRegion(imageSize) }
        let xs = corners.map(\.x), ys = corners.map(\.y)
        // The sampler rounds a position to 1/32 pixel, which can take it to the
        // pixel below its floor or above it: one pixel of slack on each side.
        func span(_ low: Double, _ high: Double, after: Int, size: Int) -> Range<Int> {
            let first = min(max(Int(floor(low)) - 1, 0), size - 1)
            let end = min(max(Int(floor(high)) + 2 + after, first + 1), size)
            return first..<end
        }
        return PixelRegion(columns: span(xs.min()!, xs.max()!, after: 2, size: imageSize.width),
                           rows: span(ys.min()!, ys.max()!, after: 1, size: imageSize.height))
    }
}

extension ImageOrientation {
    /// The stored pixels of the upright pixels `region`, for a stored image
    /// of `storedSize`.
    package func storedRegion(of region: PixelRegion, storedSize: PixelSize) -> PixelRegion {
        let map = OrientationMap(self, storedWidth: storedSize.width, storedHeight: storedSize.height)
        let first = map.stored(x: region.columns.lowerBound, y: region.rows.lowerBound)
        let last = map.stored(x: region.columns.upperBound - 1, y: region.rows.upperBound - 1)
        return PixelRegion(columns: min(first.column, last.column)..<max(first.column, last.column) + 1,
                           rows: min(first.row, last.row)..<max(first.row, last.row) + 1)
    }
}
