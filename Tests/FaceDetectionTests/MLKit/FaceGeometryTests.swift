import XCTest
@testable import FaceDetection

final class FaceGeometryTests: XCTestCase {
    private func pose(_ face: SyntheticFace) throws -> FacePose {
        try XCTUnwrap(FaceGeometry().pose(of: face.mesh(), imageWidth: face.imageWidth, imageHeight: face.imageHeight))
    }

    func testRecoversEulerAnglesOverAGridOfPoses() throws {
        for yaw in stride(from: -40.0, through: 40, by: 20) {
            for pitch in stride(from: -25.0, through: 25, by: 25) {
                for roll in stride(from: -30.0, through: 30, by: 30) {
                    let face = SyntheticFace(pitch: pitch, yaw: yaw, roll: roll, distance: 60, offsetX: yaw / 4, offsetY: -pitch / 5)
                    let angles = try pose(face).eulerAngles
                    let context = "pitch \(pitch) yaw \(yaw) roll \(roll): \(angles)"
                    XCTAssertEqual(Double(angles.x), pitch, accuracy: 1, context)
                    XCTAssertEqual(Double(angles.y), yaw, accuracy: 1, context)
                    XCTAssertEqual(Double(angles.z), roll, accuracy: 1, context)
                }
            }
        }
    }

    // The signs are checked against what the picture shows, not against the synthetic rotation.
    func testSignsFollowMLKit() throws {
        func pixel(_ mesh: [NormalizedLandmark], _ index: Int) -> (x: Float, y: Float) {
            (mesh[index].x * 640, mesh[index].y * 480)
        }

        let turnedRight = SyntheticFace(yaw: 25)
        let right = turnedRight.mesh()
        let eyesMidX = (pixel(right, 33).x + pixel(right, 263).x) / 2
        XCTAssertGreaterThan(pixel(right, 4).x, eyesMidX + 5, "the nose points to the image's right")
        XCTAssertGreaterThan(try pose(turnedRight).eulerAngles.y, 20)

        let level = SyntheticFace().mesh()
        let raised = SyntheticFace(pitch: 20).mesh()
        // Where the nose tip sits between the eyes (0) and the mouth (1), down the image.
        func noseHeight(_ mesh: [NormalizedLandmark]) -> Float {
            let eyes = (pixel(mesh, 33).y + pixel(mesh, 263).y) / 2
            return (pixel(mesh, 4).y - eyes) / (pixel(mesh, 13).y - eyes)
        }
        XCTAssertLessThan(noseHeight(raised), noseHeight(level) - 0.05, "a raised face shows its nose tip higher up")
        XCTAssertGreaterThan(try pose(SyntheticFace(pitch: 20)).eulerAngles.x, 15)

        let tilted = SyntheticFace(roll: 20)
        let mesh = tilted.mesh()
        XCTAssertLessThan(pixel(mesh, 263).y, pixel(mesh, 33).y - 5, "counter-clockwise: the image-right eye is higher")
        XCTAssertGreaterThan(try pose(tilted).eulerAngles.z, 15)
    }

    func testMirroringNegatesYawAndRollAndKeepsPitch() throws {
        let face = SyntheticFace(pitch: 12, yaw: 28, roll: -17, offsetX: 6, offsetY: 3)
        let original = try pose(face).eulerAngles
        let mirrored = try XCTUnwrap(FaceGeometry().pose(of: SyntheticFace.mirrored(face.mesh()), imageWidth: 640, imageHeight: 480)).eulerAngles
        XCTAssertEqual(mirrored.x, original.x, accuracy: 0.1)
        XCTAssertEqual(mirrored.y, -original.y, accuracy: 0.1)
        XCTAssertEqual(mirrored.z, -original.z, accuracy: 0.1)
    }

    func testTransformationMatrixIsARotationScaledAndPlacedInFrontOfTheCamera() throws {
        let face = SyntheticFace(pitch: -10, yaw: 30, roll: 15, distance: 70, offsetX: -8, offsetY: 5)
        let pose = try pose(face)
        let m = pose.transformationMatrix
        XCTAssertEqual(m.count, 16)
        XCTAssertEqual(Array(m[12...]), [0, 0, 0, 1])
        XCTAssertEqual(pose.scale, 1, accuracy: 0.02, "metric space is rescaled to the canonical face's size")
        let rows = (0..<3).map { r in SIMD3<Float>(m[4 * r], m[4 * r + 1], m[4 * r + 2]) / pose.scale }
        for i in 0..<3 {
            for j in 0..<3 {
                XCTAssertEqual((rows[i] * rows[j]).sum(), i == j ? 1 : 0, accuracy: 1e-4, "rows \(i), \(j) orthonormal")
            }
        }
        let determinant = (rows[0] * SIMD3(rows[1].y * rows[2].z - rows[1].z * rows[2].y,
                                           rows[1].z * rows[2].x - rows[1].x * rows[2].z,
                                           rows[1].x * rows[2].y - rows[1].y * rows[2].x)).sum()
        XCTAssertEqual(determinant, 1, accuracy: 1e-4, "a rotation, not a reflection")
        for row in 0..<3 {
            let expected = SIMD3<Float>(face.rotation[row])
            for column in 0..<3 {
                XCTAssertEqual(rows[row][column], expected[column], accuracy: 0.02)
            }
        }
        XCTAssertEqual(m[3], -8, accuracy: 0.5)
        XCTAssertEqual(m[7], 5, accuracy: 0.5)
        XCTAssertEqual(m[11], -70, accuracy: 1, "the face is in front of the camera, which looks down −z")
        XCTAssertEqual(pose.translation, SIMD3(m[3], m[7], m[11]))
    }

    func testNoPoseForTooFewPointsOrAFaceTooSmallToFit() {
        let mesh = SyntheticFace().mesh()
        XCTAssertNil(FaceGeometry().pose(of: Array(mesh.prefix(467)), imageWidth: 640, imageHeight: 480))
        XCTAssertNil(FaceGeometry().pose(of: mesh, imageWidth: 0, imageHeight: 480))
        let dot = mesh.map { NormalizedLandmark(x: 0.5 + ($0.x - 0.5) * 0.001, y: 0.5 + ($0.y - 0.5) * 0.001, z: $0.z * 0.001) }
        XCTAssertNil(FaceGeometry().pose(of: dot, imageWidth: 640, imageHeight: 480))
    }

    func testIrisPointsDoNotChangeThePose() throws {
        var face = SyntheticFace(pitch: 5, yaw: -15, roll: 8)
        let withIris = try pose(face).transformationMatrix
        face.withIris = false
        XCTAssertEqual(try pose(face).transformationMatrix, withIris)
    }
}
