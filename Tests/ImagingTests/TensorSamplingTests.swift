import Imaging
import SeededRandom
import Testing

@Suite("Tensor sampling")
struct TensorSamplingTests {
    static func sample(
        _ image: RGBImage, width: Int, height: Int, transform: AffineTransform,
        border: BorderMode = .zero, valueRange: ClosedRange<Float> = 0...255
    ) -> [Float] {
        var output = [Float](repeating: .nan, count: width * height * 3)
        image.sampleTensor(width: width, height: height, transform: transform, border: border, valueRange: valueRange, into: &output)
        return output
    }

    @Test("the identity copies the pixels")
    func identity() {
        let image = TestImages.noise(width: 17, height: 13, seed: 1)
        #expect(Self.sample(image, width: 17, height: 13, transform: .identity) == image.pixels.map(Float.init))
    }

    @Test("values map linearly from 0...255 to the range", arguments: [Float(-1)...1, 0...1])
    func valueRange(range: ClosedRange<Float>) {
        let image = TestImages.noise(width: 9, height: 4, seed: 2)
        let output = Self.sample(image, width: 9, height: 4, transform: .identity, valueRange: range)
        let scale = (range.upperBound - range.lowerBound) / 255
        #expect(output == image.pixels.map { Float($0) * scale + range.lowerBound })
        let extremes = TestImages.solid(width: 1, height: 1, red: 0, green: 255, blue: 128)
        let mapped = Self.sample(extremes, width: 1, height: 1, transform: .identity, valueRange: range)
        #expect(mapped[0] == range.lowerBound)
        #expect(mapped[1] == range.upperBound)
    }

    /// A square ROI turned a quarter clockwise, centred so that every output
    /// pixel lands on a source pixel centre: the crop is the image turned a
    /// quarter counter-clockwise, which the orientation code computes independently.
    @Test("a quarter-turn crop equals the image rotated by the orientation code")
    func quarterTurn() {
        let image = TestImages.noise(width: 16, height: 16, seed: 3)
        let transform = AffineTransform.rotatedRect(
            centerX: 7, centerY: 8, width: 16, height: 16, rotation: .pi / 2, outputWidth: 16, outputHeight: 16
        )
        let expected = image.upright(from: .leftBottom).pixels.map(Float.init)
        #expect(Self.sample(image, width: 16, height: 16, transform: transform) == expected)
    }

    @Test("a flipped crop is the unflipped crop mirrored")
    func flip() {
        let image = TestImages.noise(width: 40, height: 30, seed: 4)
        let arguments = (x: 18.3, y: 14.6, w: 21.0, h: 17.5, angle: -0.35)
        func crop(flip: Bool) -> [Float] {
            let transform = AffineTransform.rotatedRect(
                centerX: arguments.x, centerY: arguments.y, width: arguments.w, height: arguments.h,
                rotation: arguments.angle, flipHorizontally: flip, outputWidth: 24, outputHeight: 20
            )
            return Self.sample(image, width: 24, height: 20, transform: transform, border: .replicate)
        }
        let plain = crop(flip: false), flipped = crop(flip: true)
        for v in 0..<20 {
            for u in 0..<24 {
                let a = (v * 24 + u) * 3, b = (v * 24 + 23 - u) * 3
                #expect(Array(flipped[a..<a + 3]) == Array(plain[b..<b + 3]))
            }
        }
    }

    @Test("letterbox padding is the range's lower bound, the picture keeps its colour")
    func letterboxPadding() {
        let image = TestImages.solid(width: 200, height: 100, red: 255, green: 0, blue: 51)
        let transform = AffineTransform.letterbox(sourceWidth: 200, sourceHeight: 100, outputWidth: 128, outputHeight: 128)
        let output = Self.sample(image, width: 128, height: 128, transform: transform, border: .zero, valueRange: -1...1)
        let colour: [Float] = [1, -1, Float(51) * (2 / Float(255)) - 1]
        for v in 0..<128 {
            let row = output[(v * 128 * 3)..<((v + 1) * 128 * 3)]
            if v < 32 || v >= 96 {
                #expect(row.allSatisfy { $0 == -1 }, "row \(v)")
            } else {
                #expect(stride(from: 0, to: 128 * 3, by: 3).allSatisfy { Array(row[row.startIndex + $0..<row.startIndex + $0 + 3]) == colour }, "row \(v)")
            }
        }
    }

    @Test("outside the image: zero reads 0, replicate reads the edge")
    func borders() {
        let image = TestImages.noise(width: 4, height: 3, seed: 5)
        // Columns 4...7 of an 8-wide identity crop are outside.
        let zero = Self.sample(image, width: 8, height: 3, transform: .identity, border: .zero)
        let replicate = Self.sample(image, width: 8, height: 3, transform: .identity, border: .replicate)
        for y in 0..<3 {
            for x in 0..<8 {
                let index = (y * 8 + x) * 3
                let inside = x < 4 ? image.rgb(x, y).map(Float.init) : [0, 0, 0]
                #expect(Array(zero[index..<index + 3]) == inside)
                #expect(Array(replicate[index..<index + 3]) == image.rgb(min(x, 3), y).map(Float.init))
            }
        }
        // Half a pixel left of column 0: zero blends with 0 (rounding half
        // up), replicate blends column 0 with itself.
        let shifted = AffineTransform(m00: 1, m01: 0, m02: -0.5, m10: 0, m11: 1, m12: 0)
        let halfZero = Self.sample(image, width: 1, height: 3, transform: shifted, border: .zero)
        let halfReplicate = Self.sample(image, width: 1, height: 3, transform: shifted, border: .replicate)
        for y in 0..<3 {
            #expect(Array(halfZero[y * 3..<y * 3 + 3]) == image.rgb(0, y).map { Float((Int($0) + 1) / 2) })
            #expect(Array(halfReplicate[y * 3..<y * 3 + 3]) == image.rgb(0, y).map(Float.init))
        }
    }

    @Test("matches the reference on random transforms, images and border modes")
    func randomTransforms() {
        var generator = SplitMix64(seed: 2024)
        for trial in 0..<60 {
            let image = TestImages.noise(
                width: Int.random(in: 1...40, using: &generator), height: Int.random(in: 1...40, using: &generator), seed: UInt64(trial)
            )
            let width = Int.random(in: 1...24, using: &generator), height = Int.random(in: 1...24, using: &generator)
            let transform = AffineTransform.rotatedRect(
                centerX: Double.random(in: -10...Double(image.width + 10), using: &generator),
                centerY: Double.random(in: -10...Double(image.height + 10), using: &generator),
                width: Double.random(in: 0.5...80, using: &generator), height: Double.random(in: 0.5...80, using: &generator),
                rotation: Double.random(in: -4...4, using: &generator), flipHorizontally: Bool.random(using: &generator),
                outputWidth: width, outputHeight: height
            )
            let border: BorderMode = Bool.random(using: &generator) ? .zero : .replicate
            let range: ClosedRange<Float> = Bool.random(using: &generator) ? -1...1 : 0...1
            let fast = Self.sample(image, width: width, height: height, transform: transform, border: border, valueRange: range)
            let reference = ReferenceSampler.openCV(image, width: width, height: height, transform: transform, border: border, valueRange: range)
            #expect(fast == reference, "trial \(trial)")
        }
    }

    @Test("rows sampled in parts give the whole tensor, and leave the other rows alone")
    func rowParts() {
        var generator = SplitMix64(seed: 31)
        let image = TestImages.noise(width: 37, height: 29, seed: 5)
        for _ in 0..<20 {
            let width = Int.random(in: 1...20, using: &generator), height = Int.random(in: 2...20, using: &generator)
            let transform = AffineTransform.rotatedRect(
                centerX: Double.random(in: 0...37, using: &generator), centerY: Double.random(in: 0...29, using: &generator),
                width: Double.random(in: 4...50, using: &generator), height: Double.random(in: 4...50, using: &generator),
                rotation: Double.random(in: -3...3, using: &generator), flipHorizontally: false, outputWidth: width, outputHeight: height)
            let whole = Self.sample(image, width: width, height: height, transform: transform, border: .replicate, valueRange: 0...1)
            let split = Int.random(in: 1..<height, using: &generator)
            var parts = [Float](repeating: .nan, count: width * height * 3)
            parts.withUnsafeMutableBufferPointer { buffer in
                image.sampleTensor(width: width, height: height, transform: transform, border: .replicate, valueRange: 0...1,
                                   into: buffer, rows: 0..<split)
            }
            #expect(parts[(split * width * 3)...].allSatisfy { $0.isNaN }, "rows after the part are untouched")
            parts.withUnsafeMutableBufferPointer { buffer in
                image.sampleTensor(width: width, height: height, transform: transform, border: .replicate, valueRange: 0...1,
                                   into: buffer, rows: split..<height)
            }
            #expect(parts == whole)
        }
    }

    /// The sampler takes a row's interior run four pixels at a time and the
    /// pixels around it one by one; these transforms aim at where the two
    /// meet: positions exactly on the last columns and rows, rounding ties,
    /// images of one to three rows or columns, rows too short for a run, rows
    /// that cross the image in one huge step, and NaN, infinite or huge
    /// coefficients. Each tensor must equal the reference, and nothing past
    /// it may be written.
    @Test("matches the reference where the vector runs meet the image edges, on ties and degenerate rows")
    func runBoundaries() {
        var generator = SplitMix64(seed: 31)
        let ranges: [ClosedRange<Float>] = [0...1, -1...1, 0...255, -0.5...3]
        for trial in 0..<500 {
            let image = TestImages.noise(
                width: Int.random(in: 1...48, using: &generator), height: Int.random(in: 1...20, using: &generator),
                seed: UInt64(1000 + trial)
            )
            let width = Int.random(in: 1...40, using: &generator), height = Int.random(in: 1...5, using: &generator)
            let transform = Self.boundaryTransform(trial, image: image, width: width, using: &generator)
            let border: BorderMode = Bool.random(using: &generator) ? .zero : .replicate
            let range = ranges[Int.random(in: 0..<ranges.count, using: &generator)]
            let count = width * height * 3
            var storage = [Float](repeating: .nan, count: count + 4)
            for index in count..<storage.count {
                storage[index] = 42
            }
            storage.withUnsafeMutableBufferPointer { buffer in
                image.sampleTensor(
                    width: width, height: height, transform: transform, border: border, valueRange: range, into: buffer
                )
            }
            let reference = ReferenceSampler.openCV(
                image, width: width, height: height, transform: transform, border: border, valueRange: range
            )
            #expect(Array(storage.prefix(count)) == reference, "trial \(trial): \(transform), \(border)")
            #expect(storage.suffix(4).allSatisfy { $0 == 42 }, "trial \(trial)")
        }
    }

    /// A transform of the kind `trial` selects, for an output `width` wide.
    static func boundaryTransform(
        _ trial: Int, image: RGBImage, width: Int, using generator: inout SplitMix64
    ) -> AffineTransform {
        let imageWidth = Double(image.width), imageHeight = Double(image.height)
        func halves(_ size: Double) -> Double {
            Double(Int.random(in: -4...(2 * Int(size) + 2), using: &generator)) / 2
        }
        switch trial % 5 {
        case 0:
            // Steps of whole 1/32 pixels from half-pixel origins: positions fall
            // exactly on the last columns and rows, with and without a fraction;
            // every other such transform walks the rows down the columns.
            let steps = [1, 0.5, 0.25, 2, -1, -0.5]
            let along = steps[Int.random(in: 0..<steps.count, using: &generator)]
            let across = steps[Int.random(in: 0..<steps.count, using: &generator)]
            if trial % 2 == 0 {
                return AffineTransform(m00: along, m01: 0, m02: halves(imageWidth), m10: 0, m11: across, m12: halves(imageHeight))
            }
            return AffineTransform(m00: 0, m01: across, m02: halves(imageWidth), m10: along, m11: 0, m12: halves(imageHeight))
        case 1:
            // Positions on odd multiples of 1/64 pixel: every rounding is a tie.
            func tie(_ size: Double) -> Double {
                Double(2 * Int.random(in: -4...(32 * Int(size) + 4), using: &generator) + 1) / 64
            }
            return AffineTransform(m00: 1, m01: 0.5, m02: tie(imageWidth), m10: -0.5, m11: 1, m12: tie(imageHeight))
        case 2:
            // One output column lands near the image; the huge step puts its
            // neighbours far beyond opposite edges, some past the far-away limit.
            let steps = [1e12, -1e12, 3e8, -3e8, 1.5e7, -1.5e7]
            let step = steps[Int.random(in: 0..<steps.count, using: &generator)]
            let middle = Double(Int.random(in: 0..<width, using: &generator))
            let x = Double.random(in: -2...(imageWidth + 1), using: &generator)
            let y = Double.random(in: -2...(imageHeight + 1), using: &generator)
            if Bool.random(using: &generator) {
                return AffineTransform(m00: step, m01: 0, m02: x - step * middle, m10: 0, m11: 1, m12: y)
            }
            return AffineTransform(m00: 0.7, m01: 0, m02: x, m10: step, m11: 0.3, m12: y - step * middle)
        case 3:
            // A rotated crop partly off the image, as the landmark crops are.
            return AffineTransform.rotatedRect(
                centerX: Double.random(in: -5...(imageWidth + 5), using: &generator),
                centerY: Double.random(in: -5...(imageHeight + 5), using: &generator),
                width: Double.random(in: 1...60, using: &generator), height: Double.random(in: 1...60, using: &generator),
                rotation: Double.random(in: -4...4, using: &generator), outputWidth: width, outputHeight: 5
            )
        default:
            // One coefficient of a plain crop replaced by NaN, an infinity or a huge value.
            let hostile = [Double.nan, .infinity, -.infinity, 1e300, -1e300, 3e9]
            var coefficients = [1, 0.1, halves(imageWidth), -0.1, 1, halves(imageHeight)]
            coefficients[Int.random(in: 0..<6, using: &generator)] = hostile[Int.random(in: 0..<hostile.count, using: &generator)]
            return AffineTransform(
                m00: coefficients[0], m01: coefficients[1], m02: coefficients[2],
                m10: coefficients[3], m11: coefficients[4], m12: coefficients[5]
            )
        }
    }

    /// Against exact floating-point bilinear interpolation: off by at most the
    /// final rounding (half a level) plus the 1/32-pixel position rounding,
    /// which on an image whose slope is at most 2 levels per pixel moves a
    /// value by at most 2/64 of a level per axis.
    @Test("is bilinear interpolation up to OpenCV's roundings")
    func closeToExactBilinear() {
        let image = TestImages.gradient(width: 64, height: 48, slope: 2)
        var generator = SplitMix64(seed: 7)
        for _ in 0..<20 {
            let transform = AffineTransform.rotatedRect(
                centerX: Double.random(in: 0...64, using: &generator), centerY: Double.random(in: 0...48, using: &generator),
                width: Double.random(in: 4...90, using: &generator), height: Double.random(in: 4...90, using: &generator),
                rotation: Double.random(in: -4...4, using: &generator), outputWidth: 16, outputHeight: 16
            )
            let output = Self.sample(image, width: 16, height: 16, transform: transform, border: .replicate)
            for v in 0..<16 {
                for u in 0..<16 {
                    let position = transform.apply(x: Double(u), y: Double(v))
                    let exact = ReferenceSampler.exact(image, x: position.x, y: position.y, border: .replicate)
                    for channel in 0..<3 {
                        #expect(abs(Double(output[(v * 16 + u) * 3 + channel]) - exact[channel]) <= 0.5 + 4.0 / 64 + 1e-9)
                    }
                }
            }
        }
    }

    @Test("non-finite and enormous transforms read the border instead of crashing")
    func hostileTransforms() {
        let image = TestImages.noise(width: 5, height: 5, seed: 9)
        for transform in [
            AffineTransform(m00: 0, m01: 0, m02: .nan, m10: 0, m11: 1, m12: 0),
            AffineTransform(m00: 1, m01: 0, m02: .infinity, m10: 0, m11: 1, m12: -.infinity),
            AffineTransform(m00: 1, m01: 0, m02: 3e9, m10: 0, m11: 1, m12: 0),
            AffineTransform(m00: 1e300, m01: 1e300, m02: 0, m10: -1e300, m11: 0, m12: 1e18),
        ] {
            // Every position here is NaN, infinite or astronomically far away.
            let zero = Self.sample(image, width: 3, height: 3, transform: transform, border: .zero, valueRange: -1...1)
            #expect(zero.allSatisfy { $0 == -1 })
            let replicate = Self.sample(image, width: 3, height: 3, transform: transform, border: .replicate)
            #expect(replicate.allSatisfy { image.pixels.contains(UInt8($0)) })
        }
    }

    @Test("writes into a larger caller buffer without touching the rest")
    func unsafeBuffer() {
        let image = TestImages.noise(width: 6, height: 6, seed: 10)
        var storage = [Float](repeating: 42, count: 6 * 6 * 3 + 5)
        storage.withUnsafeMutableBufferPointer { buffer in
            image.sampleTensor(width: 6, height: 6, transform: .identity, border: .zero, valueRange: 0...255, into: buffer)
        }
        #expect(Array(storage.prefix(108)) == image.pixels.map(Float.init))
        #expect(storage.suffix(5).allSatisfy { $0 == 42 })
    }
}
