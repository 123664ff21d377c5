/// SplitMix64: the deterministic pseudo-random sequence the parity tests, the
/// randomized tests and the benchmarks' inputs use, matching the Python tools bit for bit.
package struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    package init(seed: UInt64) { state = seed }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// `count` floats in `[lower, upper)`, computed in double precision then rounded once.
    package static func floats(count: Int, seed: UInt64, lower: Double, upper: Double) -> [Float] {
        var generator = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            let unit = Double(generator.next() >> 40) / Double(1 << 24)
            return Float(lower + (upper - lower) * unit)
        }
    }
}
