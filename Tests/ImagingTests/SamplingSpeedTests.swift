#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Imaging
import Testing

/// Whether this test binary was compiled with optimizations.
enum BuildConfiguration {
    #if DEBUG
    static let optimized = false
    #else
    static let optimized = true
    #endif
}

/// Per-frame budgets, meaningful only for optimized code: run with
/// `swift test -c release`.
@Suite("Sampling speed", .enabled(if: BuildConfiguration.optimized, "timings are only meaningful in release builds"))
struct SamplingSpeedTests {
    /// Fastest wall time of `body` over `runs` runs, in milliseconds: the cost
    /// without interference from tests running in parallel on the same cores.
    static func fastestMilliseconds(runs: Int, _ body: () -> Void) -> Double {
        var times: [Double] = []
        for _ in 0..<runs {
            var start = timespec(), end = timespec()
            clock_gettime(CLOCK_MONOTONIC, &start)
            body()
            clock_gettime(CLOCK_MONOTONIC, &end)
            times.append(Double(end.tv_sec - start.tv_sec) * 1e3 + Double(end.tv_nsec - start.tv_nsec) / 1e6)
        }
        return times.min() ?? .infinity
    }

    @Test("a rotated 192x192 crop of a 640x480 frame takes well under half a millisecond")
    func landmarkCrop() {
        let image = TestImages.noise(width: 640, height: 480, seed: 12)
        let transform = AffineTransform.rotatedRect(
            centerX: 320, centerY: 240, width: 300, height: 300, rotation: 0.3, outputWidth: 192, outputHeight: 192
        )
        var tensor = [Float](repeating: 0, count: 192 * 192 * 3)
        let fastest = Self.fastestMilliseconds(runs: 101) {
            image.sampleTensor(width: 192, height: 192, transform: transform, border: .replicate, valueRange: 0...1, into: &tensor)
        }
        #expect(fastest < 0.3)
    }
}
