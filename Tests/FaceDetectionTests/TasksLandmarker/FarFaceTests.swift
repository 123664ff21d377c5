@testable import FaceDetection
import XCTest

/// A Face Landmarker session in ML Kit's accurate mode finds faces with the
/// full-range detector, so a group photo's far faces get their 478 points;
/// the default stays MediaPipe's, the bundle's short-range detector.
final class FarFaceTests: XCTestCase {
    /// `TestData.farFaces` holds ten faces.
    private static let faces = 10

    private func meshes(_ performance: FaceOptions.PerformanceMode) throws -> [Face] {
        let options = TestData.options { options in
            options.meshModel = .faceLandmarker
            options.faceMesh = true
            options.faceBlendshapes = true
            options.numFaces = 20
            options.minFaceSize = 0.01
            options.performanceMode = performance
        }
        return try FaceSession(models: TestData.models, options: options).detect(TestData.image(TestData.farFaces)).faces
    }

    func testTheFullRangeDetectorGivesFarFacesTheirMeshes() throws {
        let near = try meshes(.fast)
        let far = try meshes(.accurate)
        XCTAssertGreaterThanOrEqual(far.count, Self.faces * 7 / 10, "the full-range detector finds most of the group")
        XCTAssertGreaterThanOrEqual(far.count, 2 * max(near.count, 1), "at least twice the short-range detector's faces")
        for face in far {
            XCTAssertEqual(face.mesh?.count, 478, "every face found gets the V2 mesh's 478 points")
            XCTAssertEqual(face.blendshapes?.count, 52, "and the blendshapes")
        }
    }
}
