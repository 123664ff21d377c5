import Imaging
import Testing

@Suite("JPEG scale choice")
struct JPEGScaleTests {
    @Test("scaled sizes divide and round up")
    func scaledSizes() {
        let size = PixelSize(width: 333, height: 250)
        #expect(JPEGScale.full.scaledSize(of: size) == size)
        #expect(JPEGScale.half.scaledSize(of: size) == PixelSize(width: 167, height: 125))
        #expect(JPEGScale.quarter.scaledSize(of: size) == PixelSize(width: 84, height: 63))
        #expect(JPEGScale.eighth.scaledSize(of: size) == PixelSize(width: 42, height: 32))
        #expect(JPEGScale.allCases.map(\.denominator) == [1, 2, 4, 8])
    }

    @Test("the strongest reduction that keeps both sides at least the minimum", arguments: [
        (1920, 1080, 128, 128, JPEGScale.eighth),  // 240x135
        (1920, 1080, 256, 136, .quarter),          // 480x270; an eighth is 240x135
        (1920, 1080, 481, 10, .half),              // 960x540
        (1920, 1080, 961, 10, .full),
        (129, 129, 65, 65, .half),                 // ceil(129 / 2) = 65
        (100, 100, 1000, 1000, .full),             // nothing is large enough: no reduction
        (64, 64, 0, 0, .eighth),
    ])
    func choice(width: Int, height: Int, minimumWidth: Int, minimumHeight: Int, expected: JPEGScale) {
        let scale = JPEGScale.largestReduction(
            of: PixelSize(width: width, height: height),
            keepingAtLeast: PixelSize(width: minimumWidth, height: minimumHeight)
        )
        #expect(scale == expected)
    }
}
