import Imaging
import Testing

/// YUV formats against a 3x3 frame (odd on both axes) whose RGB values were
/// worked out by hand from the BT.601 limited-range formulas:
///
/// | Y, U, V | R, G, B |
/// | --- | --- |
/// | 16, 128, 128 | 0, 0, 0 (black) |
/// | 235, 128, 128 | 255, 255, 255 (white) |
/// | 126, 128, 128 | 128, 128, 128 (110 * 255/219 = 128.08) |
/// | 126, 240, 128 | 128, 84, 255 (G = 128.08 - 0.3918 * 112, B clamps) |
/// | 126, 128, 16 | 0, 219, 128 (R clamps, G = 128.08 + 0.8130 * 112) |
/// | 81, 90, 240 | 254, 0, 0 (BT.601's red, rounded to integers on the way in) |
///
/// Chroma samples (U, V), one per 2x2 block: (128, 128) (240, 128) on chroma
/// row 0 and (128, 16) (90, 240) on chroma row 1. The last column and row have
/// chroma samples of their own.
@Suite("YUV raw formats")
struct YUVFormatTests {
    static let pad: UInt8 = 0xEE
    static let luma: [[UInt8]] = [[16, 235, 126], [126, 126, 126], [126, 126, 81]]
    static let u: [[UInt8]] = [[128, 240], [128, 90]]
    static let v: [[UInt8]] = [[128, 128], [16, 240]]
    static let expected: [UInt8] = [
        0, 0, 0, 255, 255, 255, 128, 84, 255,
        128, 128, 128, 128, 128, 128, 128, 84, 255,
        0, 219, 128, 0, 219, 128, 254, 0, 0,
    ]

    /// The luma plane with `stride - 3` padding bytes per row.
    static func lumaPlane(stride: Int) -> [UInt8] {
        luma.flatMap { $0 + [UInt8](repeating: pad, count: stride - 3) }
    }

    @Test("NV12: chroma plane of U, V pairs sharing the luma stride")
    func nv12() throws {
        let chroma: [UInt8] = [128, 128, 240, 128, Self.pad, Self.pad, 128, 16, 90, 240, Self.pad, Self.pad]
        let frame = RawFrame(format: .nv12, width: 3, height: 3, rowStride: 6, bytes: Self.lumaPlane(stride: 6) + chroma)
        #expect(try frame.rgbImage(maxPixels: 9).pixels == Self.expected)
    }

    @Test("NV21: chroma plane of V, U pairs")
    func nv21() throws {
        let chroma: [UInt8] = [128, 128, 128, 240, Self.pad, Self.pad, 16, 128, 240, 90, Self.pad, Self.pad]
        let frame = RawFrame(format: .nv21, width: 3, height: 3, rowStride: 6, bytes: Self.lumaPlane(stride: 6) + chroma)
        #expect(try frame.rgbImage(maxPixels: 9).pixels == Self.expected)
    }

    @Test("NV12 with the tightest stride: the odd width rounded up to even")
    func nv12Tight() throws {
        #expect(PixelFormat.nv12.minimumRowStride(width: 3) == 4)
        let chroma: [UInt8] = [128, 128, 240, 128, 128, 16, 90, 240]
        let frame = RawFrame(format: .nv12, width: 3, height: 3, rowStride: 4, bytes: Self.lumaPlane(stride: 4) + chroma)
        #expect(try frame.rgbImage(maxPixels: 9).pixels == Self.expected)
    }

    @Test("I420: U then V planes, each with half the luma stride rounded up")
    func i420() throws {
        // Luma stride 6 gives chroma stride 3 (one padding byte per chroma row).
        let chroma: [UInt8] = [128, 240, Self.pad, 128, 90, Self.pad, 128, 128, Self.pad, 16, 240, Self.pad]
        let frame = RawFrame(format: .i420, width: 3, height: 3, rowStride: 6, bytes: Self.lumaPlane(stride: 6) + chroma)
        #expect(try frame.rgbImage(maxPixels: 9).pixels == Self.expected)

        // Luma stride 5 also gives chroma stride 3: (5 + 1) / 2.
        let odd = RawFrame(format: .i420, width: 3, height: 3, rowStride: 5, bytes: Self.lumaPlane(stride: 5) + chroma)
        #expect(try odd.rgbImage(maxPixels: 9).pixels == Self.expected)

        // Luma stride 3 gives chroma stride 2: no padding anywhere.
        let tight: [UInt8] = [128, 240, 128, 90, 128, 128, 16, 240]
        let packed = RawFrame(format: .i420, width: 3, height: 3, rowStride: 3, bytes: Self.lumaPlane(stride: 3) + tight)
        #expect(try packed.rgbImage(maxPixels: 9).pixels == Self.expected)
    }

    /// Every luma value against a grid of chroma pairs, compared with the
    /// BT.601 formulas evaluated in floating point. A value may only differ
    /// from the rounded exact value when the exact value is within 1e-4 of a
    /// rounding tie.
    @Test("matches the exact BT.601 formulas, correctly rounded")
    func exactFormulas() throws {
        let chromaLevels = Array(stride(from: 0, through: 255, by: 7)).map(UInt8.init)
        let pairs = chromaLevels.flatMap { u in chromaLevels.map { v in (u, v) } }
        let width = pairs.count * 2, height = 512
        // Luma row r holds Y = r / 2, so each 2x2 block shares one Y and one chroma pair.
        var bytes = [UInt8](repeating: 0, count: width * height)
        for row in 0..<height {
            for x in 0..<width { bytes[row * width + x] = UInt8(row / 2) }
        }
        let uRow = pairs.map(\.0), vRow = pairs.map(\.1)
        let chromaRows = height / 2
        bytes += (0..<chromaRows).flatMap { _ in uRow } + (0..<chromaRows).flatMap { _ in vRow }
        let image = try RawFrame(format: .i420, width: width, height: height, rowStride: width, bytes: bytes)
            .rgbImage(maxPixels: width * height)

        let kr = 0.299, kb = 0.114, kg = 1 - kr - kb, chromaScale = 255.0 / 224.0
        var mismatches = 0
        for luma in 0..<256 {
            for (index, (u, v)) in pairs.enumerated() {
                let y = Double(luma - 16) * 255 / 219
                let cb = Double(u) - 128, cr = Double(v) - 128
                let exact = [
                    y + chromaScale * 2 * (1 - kr) * cr,
                    y - chromaScale * 2 * (1 - kb) * kb / kg * cb - chromaScale * 2 * (1 - kr) * kr / kg * cr,
                    y + chromaScale * 2 * (1 - kb) * cb,
                ]
                let actual = image.rgb(2 * index, 2 * luma)
                for channel in 0..<3 {
                    let value = exact[channel]
                    let rounded = min(max((value + 0.5).rounded(.down), 0), 255)
                    let nearTie = (value - value.rounded(.down) - 0.5).magnitude < 1e-4
                    let got = Double(actual[channel])
                    if got != rounded && !(nearTie && (got - value).magnitude <= 0.5 + 1e-4) {
                        mismatches += 1
                    }
                }
            }
        }
        #expect(mismatches == 0)
    }
}
