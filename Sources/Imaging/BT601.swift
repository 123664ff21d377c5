/// BT.601 limited-range ("video") YCbCr to RGB, in fixed point.
///
/// The coefficients are the exact BT.601 ones (Kr = 0.299, Kb = 0.114, luma
/// 16...235, chroma 16...240) scaled by 2^20, so the rounding error stays far
/// below half a level and results are the correctly rounded values except in
/// near-ties. libyuv rounds its coefficients to 6 bits instead, which is why
/// its output can differ from these by a level.
package struct BT601: Sendable {
    /// The chroma contributions shared by the pixels of one chroma sample,
    /// already offset so that the final shift rounds to nearest.
    package struct Chroma {
        fileprivate let red: Int
        fileprivate let green: Int
        fileprivate let blue: Int
    }

    private static let fractionBits = 20
    private static let half = 1 << (fractionBits - 1)

    private let luma: Int
    private let redFromV: Int
    private let greenFromU: Int
    private let greenFromV: Int
    private let blueFromU: Int

    package init() {
        let kr = 0.299, kb = 0.114
        let kg = 1 - kr - kb
        let chromaScale = 255.0 / 224.0
        func fixed(_ value: Double) -> Int { Int((value * Double(1 << Self.fractionBits)).rounded()) }
        luma = fixed(255.0 / 219.0)
        redFromV = fixed(chromaScale * 2 * (1 - kr))
        greenFromU = fixed(chromaScale * 2 * (1 - kb) * kb / kg)
        greenFromV = fixed(chromaScale * 2 * (1 - kr) * kr / kg)
        blueFromU = fixed(chromaScale * 2 * (1 - kb))
    }

    /// The contributions of one chroma sample.
    @inline(__always)
    package func chroma(u: UInt8, v: UInt8) -> Chroma {
        let cb = Int(u) - 128
        let cr = Int(v) - 128
        return Chroma(
            red: redFromV * cr + Self.half,
            green: Self.half - greenFromU * cb - greenFromV * cr,
            blue: blueFromU * cb + Self.half
        )
    }

    /// The RGB of a pixel with luma `y` and chroma `chroma`.
    @inline(__always)
    package func rgb(y: UInt8, chroma: Chroma) -> (UInt8, UInt8, UInt8) {
        let scaledLuma = (Int(y) - 16) * luma
        return (
            Self.clamp((scaledLuma + chroma.red) >> Self.fractionBits),
            Self.clamp((scaledLuma + chroma.green) >> Self.fractionBits),
            Self.clamp((scaledLuma + chroma.blue) >> Self.fractionBits)
        )
    }

    @inline(__always)
    private static func clamp(_ value: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: Swift.min(Swift.max(value, 0), 255))
    }
}
