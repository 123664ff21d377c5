import Imaging
import Testing

/// Packed formats against 2x2 frames written out by hand. The upright pixels
/// are (10,20,30) (40,50,60) on row 0 and (70,80,90) (100,110,120) on row 1;
/// 0xEE marks padding and 7 marks alpha, both of which must be ignored.
@Suite("Packed raw formats")
struct PackedFormatTests {
    static let expected: [UInt8] = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120]
    static let pad: UInt8 = 0xEE

    @Test("RGB rows are copied, stride padding skipped")
    func rgb() throws {
        let bytes: [UInt8] = [10, 20, 30, 40, 50, 60, Self.pad, Self.pad, 70, 80, 90, 100, 110, 120, Self.pad, Self.pad]
        let image = try RawFrame(format: .rgb, width: 2, height: 2, rowStride: 8, bytes: bytes).rgbImage(maxPixels: 4)
        #expect(image.size == PixelSize(width: 2, height: 2))
        #expect(image.pixels == Self.expected)
    }

    @Test("RGBA drops alpha")
    func rgba() throws {
        let bytes: [UInt8] = [10, 20, 30, 7, 40, 50, 60, 7, Self.pad, 70, 80, 90, 7, 100, 110, 120, 7, Self.pad]
        let image = try RawFrame(format: .rgba, width: 2, height: 2, rowStride: 9, bytes: bytes).rgbImage(maxPixels: 4)
        #expect(image.pixels == Self.expected)
    }

    @Test("BGRA swaps red and blue and drops alpha")
    func bgra() throws {
        let bytes: [UInt8] = [30, 20, 10, 7, 60, 50, 40, 7, 90, 80, 70, 7, 120, 110, 100, 7]
        let image = try RawFrame(format: .bgra, width: 2, height: 2, rowStride: 8, bytes: bytes).rgbImage(maxPixels: 4)
        #expect(image.pixels == Self.expected)
    }

    @Test("BGR swaps red and blue")
    func bgr() throws {
        let bytes: [UInt8] = [30, 20, 10, 60, 50, 40, Self.pad, 90, 80, 70, 120, 110, 100, Self.pad]
        let image = try RawFrame(format: .bgr, width: 2, height: 2, rowStride: 7, bytes: bytes).rgbImage(maxPixels: 4)
        #expect(image.pixels == Self.expected)
    }

    @Test("GRAY8 is copied to all three channels")
    func gray() throws {
        let bytes: [UInt8] = [1, 2, 3, Self.pad, 4, 5, 6, Self.pad]
        let image = try RawFrame(format: .gray8, width: 3, height: 2, rowStride: 4, bytes: bytes).rgbImage(maxPixels: 6)
        #expect(image.pixels == [1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6])
    }

    @Test("a tightly packed frame of every packed format round-trips a larger random image")
    func tightStrides() throws {
        let image = TestImages.noise(width: 31, height: 7, seed: 11)
        let layouts: [(PixelFormat, [Int])] = [(.rgb, [0, 1, 2]), (.bgr, [2, 1, 0]), (.rgba, [0, 1, 2, -1]), (.bgra, [2, 1, 0, -1])]
        for (format, order) in layouts {
            #expect(format.minimumRowStride(width: image.width) == image.width * order.count)
            var bytes: [UInt8] = []
            for pixel in stride(from: 0, to: image.pixels.count, by: 3) {
                bytes += order.map { $0 < 0 ? 255 : image.pixels[pixel + $0] }
            }
            let frame = RawFrame(
                format: format, width: image.width, height: image.height,
                rowStride: format.minimumRowStride(width: image.width), bytes: bytes
            )
            #expect(try frame.rgbImage(maxPixels: 1000) == image, "\(format)")
        }
    }
}
