/// The inner loop of `RGBImage.sampleTensor`: OpenCV's fixed-point bilinear
/// interpolation on packed RGB8.
struct BilinearSampler {
    /// Source positions are kept in 1/32 pixel, OpenCV's `INTER_TAB_SIZE`.
    private static let subpixelBits = 5
    private static let subpixels = 1 << subpixelBits
    /// Weights of the four neighbours sum to 32 * 32; half of that rounds.
    private static let weightBits = 2 * subpixelBits
    private static let weightHalf = 1 << (weightBits - 1)
    /// Positions beyond ±2^30 / 32 pixels (and NaN) are clamped here: far
    /// outside any image, yet small enough for the integer conversion below.
    private static let limit = Double(1 << 30)
    /// 1.5 * 2^52: adding it leaves no fraction bits in the mantissa, so the
    /// sum is rounded to an integer, to nearest with ties to even in the default
    /// floating-point mode, which is what OpenCV's cvRound does; the low 32 bits
    /// of the result's bit pattern are then that integer in two's complement.
    /// This avoids a call to rint on targets without SSE4.1's roundsd.
    private static let roundingBias = 6_755_399_441_055_744.0

    let source: UnsafePointer<UInt8>
    let sourceWidth: Int
    let sourceHeight: Int
    let border: BorderMode

    /// Fills rows `rows` of a `width`-wide tensor at `output` (`width * 3`
    /// floats a row), mapping each 8-bit result through `values`.
    func sample(
        transform: AffineTransform, width: Int, rows: Range<Int>,
        values: UnsafePointer<Float>, into output: UnsafeMutablePointer<Float>
    ) {
        let stepX = transform.m00 * Double(Self.subpixels)
        let stepY = transform.m10 * Double(Self.subpixels)
        var out = output + rows.lowerBound * width * 3
        for v in rows {
            // Scaling by 32 is exact, so this equals OpenCV's (m00 u + (m01 v + m02)) * 32.
            let rowX = (transform.m01 * Double(v) + transform.m02) * Double(Self.subpixels)
            let rowY = (transform.m11 * Double(v) + transform.m12) * Double(Self.subpixels)
            for u in 0..<width {
                let x = Self.fixedPoint(rowX + stepX * Double(u))
                let y = Self.fixedPoint(rowY + stepY * Double(u))
                let (red, green, blue) = interpolate(x: x, y: y)
                out[0] = values[red]
                out[1] = values[green]
                out[2] = values[blue]
                out += 3
            }
        }
    }

    @inline(__always)
    private static func fixedPoint(_ value: Double) -> Int {
        // NaN fails both comparisons and lands far outside like an infinity.
        let clamped = value > -limit && value < limit ? value : -limit
        return Int(Int32(truncatingIfNeeded: (clamped + roundingBias).bitPattern))
    }

    /// The 8-bit R, G, B at fixed-point position `(x, y)` (units of 1/32 pixel).
    @inline(__always)
    private func interpolate(x: Int, y: Int) -> (Int, Int, Int) {
        let x0 = x >> Self.subpixelBits, y0 = y >> Self.subpixelBits
        let fx = x & (Self.subpixels - 1), fy = y & (Self.subpixels - 1)
        let w11 = fx * fy
        let w01 = fx * Self.subpixels - w11
        let w10 = fy * Self.subpixels - w11
        let w00 = Self.subpixels * Self.subpixels - w01 - w10 - w11
        let rowBytes = sourceWidth * 3
        // Both neighbours inside on each axis: the common case, read directly.
        if UInt(bitPattern: x0) < UInt(sourceWidth - 1), UInt(bitPattern: y0) < UInt(sourceHeight - 1) {
            let p = source + y0 * rowBytes + x0 * 3
            let q = p + rowBytes
            return (
                Self.blend(p[0], p[3], q[0], q[3], w00, w01, w10, w11),
                Self.blend(p[1], p[4], q[1], q[4], w00, w01, w10, w11),
                Self.blend(p[2], p[5], q[2], q[5], w00, w01, w10, w11)
            )
        }
        return interpolateAtBorder(x0: x0, y0: y0, weights: (w00, w01, w10, w11))
    }

    /// The slow path, for positions whose 2x2 neighbourhood leaves the image:
    /// each neighbour is read through the border rule, as OpenCV's remap does.
    private func interpolateAtBorder(x0: Int, y0: Int, weights: (Int, Int, Int, Int)) -> (Int, Int, Int) {
        let maxX = sourceWidth - 1, maxY = sourceHeight - 1
        if border == .zero, x0 < -1 || x0 > maxX || y0 < -1 || y0 > maxY {
            return (0, 0, 0)
        }
        var sums = (Self.weightHalf, Self.weightHalf, Self.weightHalf)
        func add(_ x: Int, _ y: Int, _ weight: Int) {
            let px: Int, py: Int
            switch border {
            case .zero:
                // An outside neighbour contributes value 0.
                guard x >= 0, x <= maxX, y >= 0, y <= maxY else { return }
                (px, py) = (x, y)
            case .replicate:
                (px, py) = (Swift.min(Swift.max(x, 0), maxX), Swift.min(Swift.max(y, 0), maxY))
            }
            let p = source + (py * sourceWidth + px) * 3
            sums.0 += Int(p[0]) * weight
            sums.1 += Int(p[1]) * weight
            sums.2 += Int(p[2]) * weight
        }
        add(x0, y0, weights.0)
        add(x0 + 1, y0, weights.1)
        add(x0, y0 + 1, weights.2)
        add(x0 + 1, y0 + 1, weights.3)
        return (sums.0 >> Self.weightBits, sums.1 >> Self.weightBits, sums.2 >> Self.weightBits)
    }

    @inline(__always)
    private static func blend(
        _ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8, _ wa: Int, _ wb: Int, _ wc: Int, _ wd: Int
    ) -> Int {
        (Int(a) * wa + Int(b) * wb + Int(c) * wc + Int(d) * wd + weightHalf) >> weightBits
    }
}
