import Imaging
import ImagingTesting
import SeededRandom
import Testing

/// Bytes a client could send to hurt the worker: each is a thrown error that
/// says what is wrong, and the decoder stays usable afterwards.
@Suite("Hostile JPEG input")
struct HostileJPEGTests {
    static let valid: [UInt8] = try! JPEGEncoder().encode(TestImages.gradient(width: 64, height: 48))

    /// The error decoding `jpeg` throws, or nil if it decodes.
    static func error(decoding jpeg: [UInt8], maxPixels: Int = 1 << 24, with decoder: JPEGDecoder? = nil) -> ImagingError? {
        do throws(ImagingError) {
            let used: JPEGDecoder
            if let decoder { used = decoder } else { used = JPEGDecoder() }
            _ = try used.decode(jpeg, maxPixels: maxPixels)
            return nil
        } catch {
            return error
        }
    }

    static func isInvalidJPEG(_ error: ImagingError?) -> Bool {
        if case .invalidJPEG(let message) = error { return !message.isEmpty }
        return false
    }

    @Test("no bytes at all")
    func empty() throws {
        #expect(Self.error(decoding: []) == .invalidJPEG("no data"))
        #expect(throws: ImagingError.invalidJPEG("no data")) { try JPEGDecoder().header(of: []) }
    }

    @Test("random bytes, with and without a JPEG start marker", arguments: [1, 2, 3, 4, 5] as [UInt64])
    func randomBytes(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed)
        let noise = (0..<Int(seed) * 300).map { _ in UInt8.random(in: 0...255, using: &generator) }
        #expect(Self.isInvalidJPEG(Self.error(decoding: noise)))
        #expect(Self.isInvalidJPEG(Self.error(decoding: [0xFF, 0xD8] + noise)))
        #expect(throws: ImagingError.self) { try JPEGDecoder().header(of: noise) }
    }

    /// The smallest cut ends before the frame header, which TurboJPEG alone
    /// would report as a successful header of size 0x0.
    @Test("truncated anywhere, including just before the end marker", arguments: [0.05, 0.25, 0.5, 0.9, 0.99])
    func truncated(fraction: Double) {
        let cut = Array(Self.valid.prefix(Int(Double(Self.valid.count) * fraction)))
        #expect(Self.isInvalidJPEG(Self.error(decoding: cut)))
        #expect(Self.isInvalidJPEG(Self.error(decoding: Array(Self.valid.dropLast(2)))))
    }

    @Test("a marker in the middle of the compressed data")
    func corrupt() {
        var corrupt = Self.valid
        let middle = (HostileJPEG.scanDataOffset(of: corrupt) + corrupt.count) / 2
        corrupt.replaceSubrange(middle..<middle + 2, with: [0xFF, 0xD3])
        let error = Self.error(decoding: corrupt)
        #expect(Self.isInvalidJPEG(error))
        #expect(error?.description.contains("Corrupt JPEG data") == true)
    }

    @Test("a progressive JPEG may have up to 500 scans")
    func manyScansAccepted() throws {
        for scans in [2, 20, 500] {
            let decoded = try JPEGDecoder().decode(HostileJPEG.progressive(scans: scans), maxPixels: 64)
            #expect(decoded.pixels == [UInt8](repeating: 128, count: 8 * 8 * 3), "\(scans) scans")
        }
    }

    @Test("a progressive JPEG with more than 500 scans is refused", arguments: [501, 5000])
    func tooManyScans(scans: Int) {
        let error = Self.error(decoding: HostileJPEG.progressive(scans: scans), maxPixels: 64)
        #expect(error == .invalidJPEG("Progressive JPEG image has more than 500 scans"))
    }

    @Test("the pixel limit applies to the header's size, inclusive")
    func pixelLimit() {
        #expect(Self.error(decoding: Self.valid, maxPixels: 64 * 48 - 1) == .tooManyPixels(width: 64, height: 48, limit: 64 * 48 - 1))
        #expect(Self.error(decoding: Self.valid, maxPixels: 64 * 48) == nil)
    }

    /// The header claims 300x300 but the data holds 64x48: refused by the limit
    /// with the header's numbers, and only with a larger limit does decoding
    /// start (and run out of data).
    @Test("the pixel limit is checked before decoding starts")
    func pixelLimitBeforeDecoding() {
        let inflated = HostileJPEG.replacingSize(of: Self.valid, width: 300, height: 300)
        #expect(Self.error(decoding: inflated, maxPixels: 89_999) == .tooManyPixels(width: 300, height: 300, limit: 89_999))
        #expect(Self.isInvalidJPEG(Self.error(decoding: inflated, maxPixels: 90_000)))

        // 60000 x 60000 would need 10.8 GB to decode; it is refused from the header.
        let huge = HostileJPEG.replacingSize(of: Self.valid, width: 60_000, height: 60_000)
        #expect(Self.error(decoding: huge) == .tooManyPixels(width: 60_000, height: 60_000, limit: 1 << 24))
    }

    @Test("zero width or height in the header", arguments: [(0, 48), (64, 0)])
    func zeroSize(width: Int, height: Int) {
        let empty = HostileJPEG.replacingSize(of: Self.valid, width: width, height: height)
        #expect(Self.isInvalidJPEG(Self.error(decoding: empty)))
        #expect(throws: ImagingError.self) { try JPEGDecoder().header(of: empty) }
    }

    @Test("a decoder that refused input decodes the next image normally")
    func reuseAfterFailure() throws {
        let decoder = JPEGDecoder()
        #expect(Self.error(decoding: Array(Self.valid.prefix(100)), with: decoder) != nil)
        #expect(Self.error(decoding: HostileJPEG.progressive(scans: 600), with: decoder) != nil)
        let decoded = try decoder.decode(Self.valid, maxPixels: 1 << 20)
        #expect(decoded.size == PixelSize(width: 64, height: 48))
    }

    /// TurboJPEG 2.1 gives up on an error inside a marker segment without
    /// resetting its instance, which then resumes the failed image's markers
    /// on every later input.
    @Test("a decoder that failed inside a header decodes the next image normally")
    func reuseAfterHeaderError() throws {
        let decoder = JPEGDecoder()
        let badLength = HostileJPEG.replacingFrameHeaderLength(of: Self.valid, with: 0)
        #expect(Self.error(decoding: badLength, with: decoder) == .invalidJPEG("Bogus marker length"))
        #expect(throws: ImagingError.invalidJPEG("Bogus marker length")) { try decoder.header(of: badLength) }
        #expect(try decoder.header(of: Self.valid) == PixelSize(width: 64, height: 48))
        let decoded = try decoder.decode(Self.valid, maxPixels: 1 << 20)
        #expect(decoded.size == PixelSize(width: 64, height: 48))
        #expect(decoded.pixels == (try JPEGDecoder().decode(Self.valid, maxPixels: 1 << 20)).pixels)
    }
}
