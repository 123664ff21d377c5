import Foundation
import Imaging
import SeededRandom
import Testing

@Suite("Affine transforms")
struct AffineTransformTests {
    static func close(_ a: (x: Double, y: Double), _ b: (x: Double, y: Double), tolerance: Double = 1e-9) -> Bool {
        abs(a.x - b.x) <= tolerance && abs(a.y - b.y) <= tolerance
    }

    @Test("identity and inverse")
    func inverse() throws {
        #expect(AffineTransform.identity.apply(x: 3.5, y: -2) == (3.5, -2))
        let transform = AffineTransform(m00: 2, m01: 1, m02: 5, m10: -1, m11: 3, m12: 7)
        let inverse = try #require(transform.inverted())
        for (x, y) in [(0.0, 0.0), (10, -4), (-3.25, 8.5)] {
            let there = transform.apply(x: x, y: y)
            #expect(Self.close(inverse.apply(x: there.x, y: there.y), (x, y)))
        }
        let collapsed = AffineTransform.rotatedRect(centerX: 5, centerY: 5, width: 0, height: 4, rotation: 0.3, outputWidth: 8, outputHeight: 8)
        #expect(collapsed.inverted() == nil)
        #expect(AffineTransform(m00: .nan, m01: 0, m02: 0, m10: 0, m11: 1, m12: 0).inverted() == nil)
    }

    /// OpenCV's `RotatedRect::points` (which MediaPipe calls through
    /// `cv::boxPoints`) lists the corners bottom-left, top-left, top-right,
    /// bottom-right, and MediaPipe maps them to the tensor corners (0, H),
    /// (0, 0), (W, 0), (W, H).
    @Test("maps the output corners to the rectangle's corners as MediaPipe does")
    func corners() {
        var generator = SplitMix64(seed: 42)
        for _ in 0..<50 {
            let cx = Double.random(in: -50...500, using: &generator), cy = Double.random(in: -50...500, using: &generator)
            let w = Double.random(in: 1...300, using: &generator), h = Double.random(in: 1...300, using: &generator)
            let angle = Double.random(in: -7...7, using: &generator)
            let outputWidth = Int.random(in: 1...256, using: &generator), outputHeight = Int.random(in: 1...256, using: &generator)
            let transform = AffineTransform.rotatedRect(
                centerX: cx, centerY: cy, width: w, height: h, rotation: angle,
                outputWidth: outputWidth, outputHeight: outputHeight
            )
            // RotatedRect::points, transcribed.
            let b = cos(angle) * 0.5, a = sin(angle) * 0.5
            let p0 = (x: cx - a * h - b * w, y: cy + b * h - a * w)
            let p1 = (x: cx + a * h - b * w, y: cy - b * h - a * w)
            let p2 = (x: 2 * cx - p0.x, y: 2 * cy - p0.y)
            let p3 = (x: 2 * cx - p1.x, y: 2 * cy - p1.y)
            let W = Double(outputWidth), H = Double(outputHeight)
            #expect(Self.close(transform.apply(x: 0, y: H), p0, tolerance: 1e-6))
            #expect(Self.close(transform.apply(x: 0, y: 0), p1, tolerance: 1e-6))
            #expect(Self.close(transform.apply(x: W, y: 0), p2, tolerance: 1e-6))
            #expect(Self.close(transform.apply(x: W, y: H), p3, tolerance: 1e-6))
        }
    }

    @Test("positive rotation turns the rectangle clockwise on screen")
    func clockwise() {
        // A 40x20 rectangle turned a quarter clockwise stands 20 wide and 40
        // tall; its top-left corner has moved to the top-right.
        let transform = AffineTransform.rotatedRect(
            centerX: 100, centerY: 50, width: 40, height: 20, rotation: .pi / 2, outputWidth: 4, outputHeight: 2
        )
        #expect(Self.close(transform.apply(x: 0, y: 0), (110, 30)))
        #expect(Self.close(transform.apply(x: 4, y: 0), (110, 70)))
        #expect(Self.close(transform.apply(x: 0, y: 2), (90, 30)))
    }

    @Test("a horizontal flip reads output column i where the unflipped one reads W - 1 - i")
    func flip() {
        let plain = AffineTransform.rotatedRect(centerX: 30, centerY: 20, width: 25, height: 18, rotation: 0.4, outputWidth: 64, outputHeight: 64)
        let flipped = AffineTransform.rotatedRect(
            centerX: 30, centerY: 20, width: 25, height: 18, rotation: 0.4, flipHorizontally: true, outputWidth: 64, outputHeight: 64
        )
        for (u, v) in [(0.0, 0.0), (63, 0), (10, 50), (31.5, 12)] {
            #expect(Self.close(flipped.apply(x: u, y: v), plain.apply(x: 63 - u, y: v)))
        }
    }

    @Test("letterbox: landscape pads top and bottom, portrait pads left and right")
    func letterbox() {
        // 200x100 into 128x128: the region grows to 200x200, one source pixel
        // is 128/200 of a tensor pixel, and 32 rows pad each side.
        let landscape = AffineTransform.letterbox(sourceWidth: 200, sourceHeight: 100, outputWidth: 128, outputHeight: 128)
        #expect(Self.close(landscape.apply(x: 0, y: 32), (0, 0)))
        #expect(Self.close(landscape.apply(x: 128, y: 96), (200, 100)))
        #expect(Self.close(landscape.apply(x: 64, y: 64), (100, 50)))
        let portrait = AffineTransform.letterbox(sourceWidth: 90, sourceHeight: 180, outputWidth: 192, outputHeight: 192)
        #expect(Self.close(portrait.apply(x: 48, y: 0), (0, 0)))
        #expect(Self.close(portrait.apply(x: 144, y: 192), (90, 180)))
        // A non-square output keeps its own aspect: 640x360 into 256x128
        // widens the region to 720x360, padding 40 of its 720 columns (that is
        // 256 * 40 / 720 tensor columns) on the left and on the right.
        let wide = AffineTransform.letterbox(sourceWidth: 640, sourceHeight: 360, outputWidth: 256, outputHeight: 128)
        let padding = 256.0 * 40 / 720
        #expect(Self.close(wide.apply(x: padding, y: 0), (0, 0)))
        #expect(Self.close(wide.apply(x: 256 - padding, y: 128), (640, 360)))
        // Same aspect, same size: the identity.
        #expect(AffineTransform.letterbox(sourceWidth: 128, sourceHeight: 128, outputWidth: 128, outputHeight: 128) == .identity)
    }
}
