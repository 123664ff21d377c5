import Imaging
import ImagingTesting
import Testing

/// Decoding what TurboJPEG's own compressor produced.
@Suite("JPEG decoding")
struct JPEGDecoderTests {
    /// Mean and largest absolute difference between two same-sized images.
    static func difference(_ a: RGBImage, _ b: RGBImage) -> (mean: Double, max: Int) {
        precondition(a.size == b.size)
        var total = 0, largest = 0
        for (x, y) in zip(a.pixels, b.pixels) {
            let delta = abs(Int(x) - Int(y))
            total += delta
            largest = max(largest, delta)
        }
        return (Double(total) / Double(a.pixels.count), largest)
    }

    @Test("round trip at quality 100 without subsampling", arguments: [(1, 1), (7, 5), (64, 48), (333, 250)])
    func roundTrip(width: Int, height: Int) throws {
        let image = TestImages.gradient(width: width, height: height)
        let jpeg = try JPEGEncoder().encode(image, quality: 100, subsampling: .none)
        let decoder = JPEGDecoder()
        #expect(try decoder.header(of: jpeg) == image.size)
        let decoded = try decoder.decode(jpeg, maxPixels: width * height)
        #expect(decoded.size == image.size)
        let error = Self.difference(decoded, image)
        #expect(error.mean < 1)
        #expect(error.max <= 4)
    }

    @Test("baseline and progressive 4:2:0 decode to the same picture")
    func subsampledAndProgressive() throws {
        let image = TestImages.gradient(width: 96, height: 80)
        let encoder = try JPEGEncoder()
        let decoder = JPEGDecoder()
        for progressive in [false, true] {
            let jpeg = try encoder.encode(image, quality: 90, subsampling: .quarter, progressive: progressive)
            let decoded = try decoder.decode(jpeg, maxPixels: 1 << 20)
            #expect(Self.difference(decoded, image).mean < 3, "progressive: \(progressive)")
        }
    }

    @Test("an encoder that wrote a progressive JPEG writes the same baseline JPEGs as a fresh one")
    func encoderReusedAfterProgressive() throws {
        let image = TestImages.gradient(width: 64, height: 48)
        let encoder = try JPEGEncoder()
        for subsampling in JPEGEncoder.ChromaSubsampling.allCases {
            _ = try encoder.encode(image, subsampling: subsampling, progressive: true)
            let reused = try encoder.encode(image, subsampling: subsampling)
            #expect(reused == (try JPEGEncoder().encode(image, subsampling: subsampling)), "\(subsampling)")
            #expect(try JPEGDecoder().decode(reused, maxPixels: 1 << 20).width == 64)
        }
    }

    @Test("a grayscale JPEG decodes to equal R, G and B")
    func grayscale() throws {
        let image = TestImages.gradient(width: 40, height: 24)
        let jpeg = try JPEGEncoder().encode(image, quality: 95, subsampling: .grayscale)
        let decoded = try JPEGDecoder().decode(jpeg, maxPixels: 1 << 20)
        var error = 0.0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let rgb = decoded.rgb(x, y)
                #expect(rgb[0] == rgb[1] && rgb[1] == rgb[2])
                let source = image.rgb(x, y).map(Double.init)
                error += abs(Double(rgb[0]) - (0.299 * source[0] + 0.587 * source[1] + 0.114 * source[2]))
            }
        }
        #expect(error / Double(image.width * image.height) < 2)
    }
}
