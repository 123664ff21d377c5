import Imaging

/// Straightforward versions of the sampler, written for clarity, to check the
/// fast one against.
enum ReferenceSampler {
    /// OpenCV's 8-bit INTER_LINEAR as documented: the position rounded to
    /// 1/32 pixel, integer weights, the result rounded, then mapped to the range.
    /// A position that is NaN or 2^25 pixels or more away is put 2^25 pixels
    /// before the origin on its axis: the sampler's rule for positions that
    /// count as outside the image.
    static func openCV(
        _ image: RGBImage, width: Int, height: Int, transform: AffineTransform,
        border: BorderMode, valueRange: ClosedRange<Float>
    ) -> [Float] {
        var output: [Float] = []
        let scale = (valueRange.upperBound - valueRange.lowerBound) / 255
        for v in 0..<height {
            for u in 0..<width {
                let x = transform.m00 * Double(u) + (transform.m01 * Double(v) + transform.m02)
                let y = transform.m10 * Double(u) + (transform.m11 * Double(v) + transform.m12)
                let fixedX = fixedPoint(x * 32), fixedY = fixedPoint(y * 32)
                let x0 = Int((Double(fixedX) / 32).rounded(.down)), y0 = Int((Double(fixedY) / 32).rounded(.down))
                let fx = fixedX - x0 * 32, fy = fixedY - y0 * 32
                let neighbours = [
                    (x0, y0, (32 - fx) * (32 - fy)), (x0 + 1, y0, fx * (32 - fy)),
                    (x0, y0 + 1, (32 - fx) * fy), (x0 + 1, y0 + 1, fx * fy),
                ]
                for channel in 0..<3 {
                    var sum = 0
                    for (nx, ny, weight) in neighbours {
                        sum += weight * Int(value(image, nx, ny, channel, border))
                    }
                    let level = (sum + 512) / 1024
                    output.append(Float(level) * scale + valueRange.lowerBound)
                }
            }
        }
        return output
    }

    /// A position in 1/32 pixel rounded to an integer, ties to even, with the
    /// far-away rule of `openCV`.
    static func fixedPoint(_ value: Double) -> Int {
        let far = Double(1 << 30)
        return value > -far && value < far ? Int(value.rounded(.toNearestOrEven)) : -(1 << 30)
    }

    /// Exact bilinear interpolation in floating point, no rounding anywhere;
    /// values in 0...255.
    static func exact(_ image: RGBImage, x: Double, y: Double, border: BorderMode) -> [Double] {
        let x0 = Int(x.rounded(.down)), y0 = Int(y.rounded(.down))
        let fx = x - Double(x0), fy = y - Double(y0)
        return (0..<3).map { channel in
            let top = (1 - fx) * Double(value(image, x0, y0, channel, border)) + fx * Double(value(image, x0 + 1, y0, channel, border))
            let bottom = (1 - fx) * Double(value(image, x0, y0 + 1, channel, border)) + fx * Double(value(image, x0 + 1, y0 + 1, channel, border))
            return (1 - fy) * top + fy * bottom
        }
    }

    /// Channel `channel` of pixel `(x, y)`, or what the border rule reads there.
    static func value(_ image: RGBImage, _ x: Int, _ y: Int, _ channel: Int, _ border: BorderMode) -> UInt8 {
        let inside = (0..<image.width).contains(x) && (0..<image.height).contains(y)
        switch border {
        case .zero:
            return inside ? image.rgb(x, y)[channel] : 0
        case .replicate:
            return image.rgb(min(max(x, 0), image.width - 1), min(max(y, 0), image.height - 1))[channel]
        }
    }
}
