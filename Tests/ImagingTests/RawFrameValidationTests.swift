import Imaging
import Testing

/// Every way a raw frame's description can disagree with its bytes is a
/// thrown error naming the expected and the actual value, never a crash.
@Suite("Raw frame validation")
struct RawFrameValidationTests {
    /// The error `frame.rgbImage(maxPixels:)` throws, or nil if it succeeds.
    static func error(of frame: RawFrame, maxPixels: Int = 1 << 24) -> ImagingError? {
        do {
            _ = try frame.rgbImage(maxPixels: maxPixels)
            return nil
        } catch {
            return error
        }
    }

    @Test("zero or negative width or height", arguments: [(0, 4), (4, 0), (-1, 4), (4, -3)])
    func emptyImage(width: Int, height: Int) {
        let frame = RawFrame(format: .rgb, width: width, height: height, rowStride: 12, bytes: [])
        let error = Self.error(of: frame)
        #expect(error == .emptyImage(width: width, height: height))
        #expect(error?.description.contains("\(width)x\(height)") == true)
    }

    @Test("more pixels than allowed, whatever the buffer holds")
    func tooManyPixels() {
        let frame = RawFrame(format: .gray8, width: 100, height: 100, rowStride: 100, bytes: [1, 2, 3])
        let error = Self.error(of: frame, maxPixels: 9_999)
        #expect(error == .tooManyPixels(width: 100, height: 100, limit: 9_999))
        #expect(error?.description.contains("10000 pixels") == true)
        #expect(error?.description.contains("9999") == true)
        // The limit itself is allowed.
        let exact = RawFrame(format: .gray8, width: 100, height: 100, rowStride: 100, bytes: [UInt8](repeating: 0, count: 10_000))
        #expect(Self.error(of: exact, maxPixels: 10_000) == nil)
    }

    @Test("a pixel count that overflows is too many, not a trap")
    func overflowingPixelCount() {
        let frame = RawFrame(format: .rgba, width: .max, height: 3, rowStride: .max, bytes: [])
        #expect(Self.error(of: frame, maxPixels: .max) == .tooManyPixels(width: .max, height: 3, limit: .max))
    }

    @Test("row stride shorter than a row", arguments: [
        (PixelFormat.rgb, 10, 29, 30), (.rgba, 10, 39, 40), (.bgra, 10, 0, 40), (.bgr, 10, 20, 30),
        (.gray8, 10, 9, 10), (.nv12, 5, 5, 6), (.nv21, 5, 5, 6), (.i420, 5, 4, 5),
    ])
    func strideTooSmall(format: PixelFormat, width: Int, stride: Int, minimum: Int) {
        let frame = RawFrame(format: format, width: width, height: 2, rowStride: stride, bytes: [UInt8](repeating: 0, count: 1000))
        let error = Self.error(of: frame)
        #expect(error == .rowStrideTooSmall(format: format, width: width, minimum: minimum, actual: stride))
        #expect(error?.description.contains("expected at least \(minimum) bytes, got \(stride)") == true)
    }

    /// Expected lengths, worked out from the documented layouts for a 5x5
    /// frame (odd, so chroma is 3x3) with row stride 7.
    @Test("buffer one byte short or long", arguments: [
        (PixelFormat.rgb, 15, 75), (.rgba, 20, 100), (.bgra, 21, 105), (.bgr, 15, 75), (.gray8, 7, 35),
        (.nv12, 7, 56),  // 5 luma rows + 3 chroma rows of 7
        (.nv21, 6, 48),  // 5 + 3 rows of 6
        (.i420, 7, 59),  // 35 luma + 2 planes of 3 rows of 4
    ])
    func bufferSize(format: PixelFormat, stride: Int, expected: Int) {
        for actual in [expected - 1, expected + 1, 0] {
            let frame = RawFrame(format: format, width: 5, height: 5, rowStride: stride, bytes: [UInt8](repeating: 0, count: actual))
            let error = Self.error(of: frame)
            #expect(error == .bufferSizeMismatch(format: format, width: 5, height: 5, rowStride: stride, expected: expected, actual: actual))
            #expect(error?.description.contains("expected \(expected) bytes, got \(actual)") == true)
        }
        let exact = RawFrame(format: format, width: 5, height: 5, rowStride: stride, bytes: [UInt8](repeating: 0, count: expected))
        #expect(Self.error(of: exact) == nil)
    }

    @Test("a stride so large that the length overflows is a mismatch, not a trap")
    func overflowingStride() {
        for format in PixelFormat.allCases {
            let frame = RawFrame(format: format, width: 4, height: 4, rowStride: .max, bytes: [1])
            #expect(Self.error(of: frame) == .bufferSizeMismatch(format: format, width: 4, height: 4, rowStride: .max, expected: .max, actual: 1))
        }
    }

    @Test("checks run in order: size, pixel limit, stride, length")
    func order() {
        let everythingWrong = RawFrame(format: .rgb, width: 0, height: 5, rowStride: 1, bytes: [1])
        #expect(Self.error(of: everythingWrong, maxPixels: 0) == .emptyImage(width: 0, height: 5))
        let tooLarge = RawFrame(format: .rgb, width: 5, height: 5, rowStride: 1, bytes: [1])
        #expect(Self.error(of: tooLarge, maxPixels: 24) == .tooManyPixels(width: 5, height: 5, limit: 24))
        let narrow = RawFrame(format: .rgb, width: 5, height: 5, rowStride: 1, bytes: [1])
        #expect(Self.error(of: narrow) == .rowStrideTooSmall(format: .rgb, width: 5, minimum: 15, actual: 1))
    }

    @Test("RGBImage checks its own bytes")
    func rgbImage() {
        #expect(throws: ImagingError.bufferSizeMismatch(format: .rgb, width: 2, height: 2, rowStride: 6, expected: 12, actual: 11)) {
            try RGBImage(width: 2, height: 2, pixels: [UInt8](repeating: 0, count: 11))
        }
        #expect(throws: ImagingError.emptyImage(width: 0, height: 2)) {
            try RGBImage(width: 0, height: 2, pixels: [])
        }
    }
}
