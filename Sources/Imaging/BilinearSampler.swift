/// The inner loop of `OrientedFrame.sampleTensor`: OpenCV's fixed-point
/// bilinear interpolation on 8-bit RGB, in upright coordinates.
///
/// Each output row walks a straight line through the upright image. When the
/// stored pixels are upright packed RGB, its pixels whose whole neighbourhood
/// lies inside the image form one run in the middle of the row (the run path
/// in `BilinearSampler+Runs.swift`, four pixels at a time, reading the bytes
/// in place); every other pixel takes the per-pixel path in this file, which
/// fetches each neighbour through `source` at its stored position. Both
/// produce the same bits.
struct BilinearSampler<Source: StoredPixels> {
    /// Source positions are kept in 1/32 pixel, OpenCV's `INTER_TAB_SIZE`.
    static var subpixelBits: Int { 5 }
    static var subpixels: Int { 1 << subpixelBits }
    /// Weights of the four neighbours sum to 32 * 32; half of that rounds.
    private static var weightBits: Int { 2 * subpixelBits }
    private static var weightHalf: Int { 1 << (weightBits - 1) }
    /// Positions beyond ±2^30 / 32 pixels (and NaN) are clamped here: far
    /// outside any image, yet small enough for the integer conversion below.
    private static var limit: Double { Double(1 << 30) }
    /// 1.5 * 2^52: adding it leaves no fraction bits in the mantissa, so the
    /// sum is rounded to an integer, to nearest with ties to even in the default
    /// floating-point mode, which is what OpenCV's cvRound does; the low 32 bits
    /// of the result's bit pattern are then that integer in two's complement.
    /// This avoids a call to rint on targets without SSE4.1's roundsd.
    static var roundingBias: Double { 6_755_399_441_055_744.0 }

    let source: Source
    let map: OrientationMap
    /// The upright image's size.
    let sourceWidth: Int
    let sourceHeight: Int
    let border: BorderMode
    /// The stored bytes when they are upright packed RGB, for the run path.
    let packedRGB: PackedRGBRows?

    /// Fills rows `rows` of a `width`-wide tensor at `output` (`width * 3`
    /// floats a row), writing nothing outside them: each 8-bit result `q`
    /// becomes `Float(q) * (hi - lo) / 255 + lo` for `valueRange = lo...hi`,
    /// computed as OpenCV's convertTo does (`q * scale + offset` in Float).
    func sample(
        transform: AffineTransform, width: Int, rows: Range<Int>,
        valueRange: ClosedRange<Float>, into output: UnsafeMutablePointer<Float>
    ) {
        let levels = Levels(
            scale: (valueRange.upperBound - valueRange.lowerBound) / 255, offset: valueRange.lowerBound
        )
        let stepX = transform.m00 * Double(Self.subpixels)
        let stepY = transform.m10 * Double(Self.subpixels)
        withUnsafeTemporaryAllocation(
            byteCount: RunScratch.byteCount(width: width), alignment: RunScratch.alignment
        ) { memory in
            guard let base = memory.baseAddress else { return }
            let scratch = RunScratch(base, width: width)
            // Every row adds the same column terms; computing them once makes
            // a run's positions one addition each, with the same bits.
            for u in 0..<width {
                scratch.stepsX[u] = stepX * Double(u)
                scratch.stepsY[u] = stepY * Double(u)
            }
            for v in rows {
                // Scaling by 32 is exact, so this equals OpenCV's (m00 u + (m01 v + m02)) * 32.
                let rowX = (transform.m01 * Double(v) + transform.m02) * Double(Self.subpixels)
                let rowY = (transform.m11 * Double(v) + transform.m12) * Double(Self.subpixels)
                // The last row of the part counts as the tensor's last: a run's
                // write past its end would land in a row another thread may fill.
                sampleRow(
                    rowX: rowX, rowY: rowY, width: width, isLast: v == rows.upperBound - 1, scratch: scratch,
                    levels: levels, into: output + v * width * 3
                )
            }
        }
    }

    private func sampleRow(
        rowX: Double, rowY: Double, width: Int, isLast: Bool, scratch: RunScratch,
        levels: Levels, into row: UnsafeMutablePointer<Float>
    ) {
        @inline(__always) func position(_ u: Int) -> (x: Int, y: Int) {
            (Self.fixedPoint(rowX + scratch.stepsX[u]), Self.fixedPoint(rowY + scratch.stepsY[u]))
        }
        @inline(__always) func write(_ u: Int, at position: (x: Int, y: Int)) {
            let (red, green, blue) = interpolate(x: position.x, y: position.y)
            row[3 * u] = levels.value(red)
            row[3 * u + 1] = levels.value(green)
            row[3 * u + 2] = levels.value(blue)
        }
        if isBlank(
            first: (rowX + scratch.stepsX[0], rowY + scratch.stepsY[0]),
            last: (rowX + scratch.stepsX[width - 1], rowY + scratch.stepsY[width - 1])
        ) {
            let zero = levels.value(0)
            for index in 0..<(3 * width) {
                row[index] = zero
            }
            return
        }
        guard let packedRGB else {
            for u in 0..<width {
                write(u, at: position(u))
            }
            return
        }
        // x and y are monotonic along the row, so the pixels inside the run's
        // bounds form one interval: scan in from both ends to find it.
        var u = 0
        while u < width {
            let here = position(u)
            if isRunPixel(here) { break }
            write(u, at: here)
            u += 1
        }
        var end = width
        while end > u, !isRunPixel(position(end - 1)) {
            end -= 1
        }
        // The run also writes one float past each pixel, into the next pixel,
        // which must therefore exist and be written afterwards: not so for the
        // tensor's very last pixel.
        let runEnd = isLast ? Swift.min(end, width - 1) : end
        if runEnd - u >= 4 {
            sampleRun(
                from: u, count: runEnd - u, rowX: rowX, rowY: rowY, rows: packedRGB, scratch: scratch, levels: levels,
                into: row
            )
            u = runEnd
        }
        while u < width {
            write(u, at: position(u))
            u += 1
        }
    }

    /// Whether the run path may take a pixel at this fixed-point position: its
    /// four neighbours are inside, and so are the two bytes after them that the
    /// run's 8-byte loads also read (one more source row is left out for that).
    @inline(__always)
    private func isRunPixel(_ position: (x: Int, y: Int)) -> Bool {
        let x0 = position.x >> Self.subpixelBits, y0 = position.y >> Self.subpixelBits
        return x0 >= 0 && x0 < sourceWidth - 1 && y0 >= 0 && y0 < sourceHeight - 2
    }

    /// With the zero border, whether a row whose end pixels are at these
    /// positions (1/32 pixel, before rounding) reads nothing: both lie beyond
    /// the same edge, so every pixel between them does too.
    private func isBlank(first: (x: Double, y: Double), last: (x: Double, y: Double)) -> Bool {
        guard border == .zero else { return false }
        let firstX = Self.side(first.x, size: sourceWidth), firstY = Self.side(first.y, size: sourceHeight)
        return (firstX != 0 && firstX == Self.side(last.x, size: sourceWidth))
            || (firstY != 0 && firstY == Self.side(last.y, size: sourceHeight))
    }

    /// -1 or 1 when a coordinate (1/32 pixel, before rounding) puts all four
    /// neighbours past the low or the high edge of an axis of `size` pixels,
    /// 0 otherwise. Unlike `fixedPoint`, it keeps the two far sides apart and
    /// says 0 for NaN, so that it is monotonic along a row.
    private static func side(_ value: Double, size: Int) -> Int {
        if value <= -limit { return -1 }
        if value >= limit { return 1 }
        guard value > -limit else { return 0 }
        let index = fixedPoint(value) >> subpixelBits
        return index < -1 ? -1 : index > size - 1 ? 1 : 0
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
        // Both neighbours inside on each axis: read directly.
        if UInt(bitPattern: x0) < UInt(sourceWidth - 1), UInt(bitPattern: y0) < UInt(sourceHeight - 1) {
            let p0 = pixel(x0, y0), p1 = pixel(x0 + 1, y0), q0 = pixel(x0, y0 + 1), q1 = pixel(x0 + 1, y0 + 1)
            return (
                Self.blend(p0.0, p1.0, q0.0, q1.0, w00, w01, w10, w11),
                Self.blend(p0.1, p1.1, q0.1, q1.1, w00, w01, w10, w11),
                Self.blend(p0.2, p1.2, q0.2, q1.2, w00, w01, w10, w11)
            )
        }
        return interpolateAtBorder(x0: x0, y0: y0, weights: (w00, w01, w10, w11))
    }

    /// The RGB of upright pixel `(x, y)`, inside the image.
    @inline(__always)
    private func pixel(_ x: Int, _ y: Int) -> (UInt8, UInt8, UInt8) {
        let stored = map.stored(x: x, y: y)
        return source.rgb(column: stored.column, row: stored.row)
    }

    /// For positions whose 2x2 neighbourhood leaves the image: each neighbour
    /// is read through the border rule, as OpenCV's remap does.
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
            let p = pixel(px, py)
            sums.0 += Int(p.0) * weight
            sums.1 += Int(p.1) * weight
            sums.2 += Int(p.2) * weight
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

extension BilinearSampler {
    /// The map from 8-bit results to tensor values, applied the same way by
    /// both paths.
    struct Levels {
        let scale: Float
        let offset: Float

        @inline(__always)
        func value(_ level: Int) -> Float {
            Float(level) * scale + offset
        }

        @inline(__always)
        func values(_ levels: SIMD4<Int32>) -> SIMD4<Float> {
            SIMD4<Float>(levels) * scale + offset
        }
    }
}
