@testable import FaceDetection
import XCTest

/// The Face Landmarker's frame-to-frame rules: rect association and the
/// one-euro filter's MediaPipe particulars.
final class LandmarkerLoopTests: XCTestCase {
    private func rect(_ x: Float, id: Int?) -> LandmarkerLoop.Rect {
        LandmarkerLoop.Rect(roi: RegionOfInterest(centerX: x, centerY: 0.5, width: 0.2, height: 0.2, rotation: 0),
                            trackID: id, detection: nil, score: 1)
    }

    func testADetectionReplacesTheFollowedRectItOverlapsAndTakesItsID() {
        let followed = [rect(0.2, id: 1), rect(0.6, id: 2)]
        let detected = [rect(0.21, id: nil), rect(0.9, id: nil)]
        let result = LandmarkerLoop.associate([followed, detected], threshold: 0.5)
        XCTAssertEqual(result.map(\.roi.centerX), [0.6, 0.21, 0.9], "untouched followed rects first, then the detector's")
        XCTAssertEqual(result.map(\.trackID), [2, 1, nil])
        // Overlap at or below the threshold keeps both.
        XCTAssertEqual(LandmarkerLoop.associate([followed, [rect(0.3, id: nil)]], threshold: 0.5).count, 3)
    }

    func testOneEuroFilterFollowsMediaPipesTimestampRules() {
        var filter = OneEuroFilter(frequency: 30, minCutoff: 0.05, beta: 80, derivateCutoff: 1)
        XCTAssertEqual(filter.apply(10, timestampNs: 0, valueScale: 1), 10, "the first value initializes")
        XCTAssertEqual(filter.apply(99, timestampNs: 0, valueScale: 1), 99, "a repeated timestamp passes through")
        XCTAssertEqual(filter.apply(10, timestampNs: 33_000_000, valueScale: 1), 10, "a still value stays")
        let moved = filter.apply(20, timestampNs: 66_000_000, valueScale: 0.01)
        XCTAssertGreaterThan(moved, 10)
        XCTAssertLessThan(moved, 20)
        // A fast move (large scaled speed) is followed more closely than a slow one.
        var slow = OneEuroFilter(frequency: 30, minCutoff: 0.05, beta: 80, derivateCutoff: 1)
        _ = slow.apply(10, timestampNs: 0, valueScale: 1)
        XCTAssertLessThan(slow.apply(10.001, timestampNs: 33_000_000, valueScale: 1) - 10, 0.0005)
    }
}
