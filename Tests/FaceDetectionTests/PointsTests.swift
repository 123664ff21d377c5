import FaceDetection
import XCTest

final class PointsTests: XCTestCase {
    func testNormalizedLandmarkScalesToPixels() {
        let point = NormalizedLandmark(x: 0.25, y: 0.5, z: 0.1).pixel(width: 640, height: 360)
        XCTAssertEqual(point, PixelPoint(x: 160, y: 180))
    }
}
