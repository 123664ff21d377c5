import Imaging
import SeededRandom

/// Synthetic images the tests build for themselves.
enum TestImages {
    /// Every byte random.
    static func noise(width: Int, height: Int, seed: UInt64) -> RGBImage {
        var generator = SplitMix64(seed: seed)
        let pixels = (0..<width * height * 3).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return try! RGBImage(width: width, height: height, pixels: pixels)
    }

    /// Smooth triangle waves, different per channel: compresses well, and no
    /// channel changes by more than `slope` levels from one pixel to the next.
    static func gradient(width: Int, height: Int, slope: Double = 1) -> RGBImage {
        var pixels: [UInt8] = []
        pixels.reserveCapacity(width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let fx = Double(x), fy = Double(y)
                pixels.append(level(30 + triangle(slope * (fx + fy) / 2, period: 190)))
                pixels.append(level(225 - triangle(slope * (fx + 2 * fy) / 3, period: 170)))
                pixels.append(level(60 + triangle(slope * (2 * fx + fy) / 3 + 50, period: 150)))
            }
        }
        return try! RGBImage(width: width, height: height, pixels: pixels)
    }

    /// One colour everywhere.
    static func solid(width: Int, height: Int, red: UInt8, green: UInt8, blue: UInt8) -> RGBImage {
        let pixels = [UInt8]((0..<width * height).map { _ in [red, green, blue] }.joined())
        return try! RGBImage(width: width, height: height, pixels: pixels)
    }

    /// Rises from 0 to `period` and falls back, with slope 1.
    private static func triangle(_ t: Double, period: Double) -> Double {
        let phase = t.truncatingRemainder(dividingBy: 2 * period)
        return (phase - period).magnitude
    }

    private static func level(_ value: Double) -> UInt8 {
        UInt8(min(max(value.rounded(), 0), 255))
    }
}

extension RGBImage {
    /// The R, G, B of pixel `(x, y)`.
    func rgb(_ x: Int, _ y: Int) -> [UInt8] {
        let index = (y * width + x) * 3
        return Array(pixels[index..<index + 3])
    }
}
