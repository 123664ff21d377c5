import Imaging
import ImagingTesting
import Testing

/// Damaged compressed data is decoded as libjpeg decodes it, what cannot be
/// decoded grey, with libjpeg's warning; refused with that message when the
/// caller refuses damaged images. A damaged header is refused either way.
@Suite("damaged JPEGs")
struct DamagedJPEGTests {
    /// Noise, so that the compressed scan is most of the file.
    static let valid: [UInt8] = try! JPEGEncoder().encode(TestImages.noise(width: 128, height: 128, seed: 5))

    /// Bytes 0..<count of the valid file: the header whole, the scan cut short.
    static func truncated(to fraction: Double) -> [UInt8] {
        Array(valid.prefix(Int(Double(valid.count) * fraction)))
    }

    func decode(_ jpeg: [UInt8], refuseDamaged: Bool) throws(ImagingError) -> JPEGDecoder.Decoded {
        let decoder = JPEGDecoder()
        let size = try decoder.header(of: jpeg)
        return try jpeg.withUnsafeBufferPointer { (buffer) throws(ImagingError) in
            try decoder.decode(UnsafeRawBufferPointer(buffer), size: size, refuseDamaged: refuseDamaged)
        }
    }

    @Test("a sound JPEG decodes without a warning")
    func sound() throws {
        #expect(try decode(Self.valid, refuseDamaged: false).warning == nil)
        #expect(try decode(Self.valid, refuseDamaged: true).warning == nil)
    }

    @Test("a truncated JPEG decodes with libjpeg's warning, the missing rows grey")
    func truncatedDecodes() throws {
        let decoded = try decode(Self.truncated(to: 0.7), refuseDamaged: false)
        let warning = try #require(decoded.warning)
        #expect(warning.contains("Premature end of JPEG file") || warning.contains("Corrupt JPEG data"), "\(warning)")
        let image = decoded.image
        let last = Array(image.pixels[(image.height - 1) * image.width * 3..<(image.height * image.width * 3)])
        #expect(last.allSatisfy { (118...138).contains($0) }, "bottom row \(last.prefix(6)) is not grey")
        let sound = try decode(Self.valid, refuseDamaged: false).image
        #expect(image.pixels[0..<(image.width * 3)] == sound.pixels[0..<(image.width * 3)], "the top row keeps the picture")
    }

    @Test("refused with libjpeg's message when damaged JPEGs are refused")
    func truncatedRefused() throws {
        let warning = try #require(try decode(Self.truncated(to: 0.7), refuseDamaged: false).warning)
        #expect(throws: ImagingError.invalidJPEG(warning)) {
            _ = try decode(Self.truncated(to: 0.7), refuseDamaged: true)
        }
    }

    @Test("a damaged header is refused even when damage is tolerated")
    func damagedHeader() throws {
        var header = Self.valid
        // The SOF0 marker's length and precision bytes: the frame header no longer parses.
        let sof = try #require((0..<header.count - 1).first { header[$0] == 0xFF && header[$0 + 1] == 0xC0 })
        header[sof + 4] = 0
        #expect(throws: ImagingError.self) {
            _ = try decode(header, refuseDamaged: false)
        }
    }
}
