import XCTest
import FaceDetection

/// Checks against MediaPipe itself, on its meshes of the astronaut photograph and its mirror image
/// (tools/goldens/make_face_geometry.py).
final class MediaPipeParityTests: XCTestCase {
    private typealias Face = MediaPipeFaceGeometryGolden.Face

    private func features(_ face: Face) -> MLKitFaceFeatures {
        let mesh = stride(from: 0, to: face.mesh.count, by: 3).map {
            NormalizedLandmark(x: face.mesh[$0], y: face.mesh[$0 + 1], z: face.mesh[$0 + 2])
        }
        return MLKitFaceFeatures.compute(mesh: mesh, imageWidth: face.imageWidth, imageHeight: face.imageHeight, outputs: .all)
    }

    func testTransformationMatrixMatchesMediaPipes() throws {
        for face in MediaPipeFaceGeometryGolden.faces {
            let matrix = try XCTUnwrap(features(face).transformationMatrix)
            for row in 0..<4 {
                for column in 0..<3 {
                    XCTAssertEqual(matrix[4 * row + column], face.matrix[4 * row + column], accuracy: 1e-4, "\(face.name) [\(row)][\(column)]")
                }
                // Translation in centimetres, about 70 away; MediaPipe works in single precision.
                XCTAssertEqual(matrix[4 * row + 3], face.matrix[4 * row + 3], accuracy: 2e-3, "\(face.name) [\(row)][3]")
            }
        }
    }

    func testTheMirroredPhotographTurnsAndTiltsTheOtherWay() throws {
        let faces = MediaPipeFaceGeometryGolden.faces
        let original = try XCTUnwrap(features(faces[0]).eulerAngles)
        let mirrored = try XCTUnwrap(features(faces[1]).eulerAngles)
        XCTAssertGreaterThan(abs(original.z), 2, "the astronaut's head is tilted")
        XCTAssertEqual(mirrored.z, -original.z, accuracy: 1)
        XCTAssertEqual(mirrored.y, -original.y, accuracy: 1)
        XCTAssertEqual(mirrored.x, original.x, accuracy: 1.5)
    }

    // The smile's scale was taken from this photograph (see SmileProbability); this keeps the
    // real mesh, not only the synthetic faces, on the right side of every decision.
    func testTheAstronautSmilesWithHerEyesOpen() throws {
        for face in MediaPipeFaceGeometryGolden.faces {
            let result = features(face)
            XCTAssertGreaterThan(try XCTUnwrap(result.smilingProbability), 0.8, face.name)
            XCTAssertGreaterThan(try XCTUnwrap(result.leftEyeOpenProbability), 0.9, face.name)
            XCTAssertGreaterThan(try XCTUnwrap(result.rightEyeOpenProbability), 0.9, face.name)
        }
    }

    func testRealMeshLandmarksAreOnTheSubjectsSides() throws {
        for face in MediaPipeFaceGeometryGolden.faces {
            let result = features(face)
            let leftEye = try XCTUnwrap(result.landmark(.leftEye)).position
            let rightEye = try XCTUnwrap(result.landmark(.rightEye)).position
            XCTAssertGreaterThan(leftEye.x, rightEye.x + 20, face.name)
            let oval = try XCTUnwrap(result.contour(.face)).points
            for contour in try XCTUnwrap(result.contours) {
                for point in contour.points {
                    XCTAssertTrue((oval.map(\.x).min()!...oval.map(\.x).max()!).contains(point.x), "\(face.name) \(contour.type)")
                }
            }
        }
    }
}
