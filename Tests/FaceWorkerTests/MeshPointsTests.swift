import FaceWorkerClient
import FaceWorkerProtocol
import XCTest

/// The Swift client's reading of the packed mesh into points.
final class MeshPointsTests: XCTestCase {
    func testPointsAreReadThreeFloatsAtATime() {
        let face = Faceworker_V1_Face.with { $0.meshXyz = [0.1, 0.2, 0.3, 0.4, 0.5, -0.6] }
        XCTAssertEqual(Array(face.meshPoints), [MeshPoint(x: 0.1, y: 0.2, z: 0.3), MeshPoint(x: 0.4, y: 0.5, z: -0.6)])
        XCTAssertEqual(face.meshPoints[1].z, -0.6)
    }

    func testATrailingPartialPointIsNotAPoint() {
        XCTAssertEqual(MeshPoints(xyz: [1, 2, 3, 4, 5]).count, 1)
        XCTAssertTrue(Faceworker_V1_Face().meshPoints.isEmpty)
    }
}
