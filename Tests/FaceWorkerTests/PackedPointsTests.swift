import FaceWorkerClient
import FaceWorkerProtocol
import XCTest

/// The Swift client's reading of the packed mesh and contours into points.
final class PackedPointsTests: XCTestCase {
    func testMeshPointsAreReadThreeFloatsAtATime() {
        let face = Faceworker_V1_Face.with { $0.meshXyz = [0.1, 0.2, 0.3, 0.4, 0.5, -0.6] }
        XCTAssertEqual(Array(face.meshPoints), [MeshPoint(x: 0.1, y: 0.2, z: 0.3), MeshPoint(x: 0.4, y: 0.5, z: -0.6)])
        XCTAssertEqual(face.meshPoints[1].z, -0.6)
    }

    func testATrailingPartialMeshPointIsNotAPoint() {
        XCTAssertEqual(MeshPoints(xyz: [1, 2, 3, 4, 5]).count, 1)
        XCTAssertTrue(Faceworker_V1_Face().meshPoints.isEmpty)
    }

    func testContourPointsAreReadTwoFloatsAtATime() {
        let contour = Faceworker_V1_Contour.with { $0.pointsXy = [10, 20, 30, 40, 50] }
        XCTAssertEqual(contour.points.map { [$0.x, $0.y] }, [[10, 20], [30, 40]])
        XCTAssertTrue(Faceworker_V1_Contour().points.isEmpty)
    }
}
