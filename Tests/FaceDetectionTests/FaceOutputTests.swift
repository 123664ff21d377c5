import FaceDetection
import XCTest

/// ML Kit's outputs computed by the whole pipeline on real photographs.
final class FaceOutputTests: XCTestCase {
    private func face(_ name: String, _ change: (inout FaceOptions) -> Void = { _ in }) throws -> Face {
        let session = try FaceSession(models: TestData.models, options: TestData.options {
            $0.landmarks = true
            $0.contours = true
            $0.classification = true
            change(&$0)
        })
        let faces = try session.detect(TestData.image(name)).faces
        XCTAssertEqual(faces.count, 1, name)
        return try XCTUnwrap(faces.first)
    }

    func testRollFollowsTheAppliedRotation() throws {
        let upright = try XCTUnwrap(try face("astronaut.jpg").headEulerAngleZ)
        for (name, angle) in [("astronaut_rot_m30.jpg", Float(-30)), ("astronaut_rot_m15.jpg", -15), ("astronaut_rot_p15.jpg", 15), ("astronaut_rot_p30.jpg", 30)] {
            let roll = try XCTUnwrap(try face(name).headEulerAngleZ, name)
            XCTAssertEqual(roll - upright, angle, accuracy: 3, "\(name): roll \(roll), upright \(upright)")
        }
    }

    func testRollWithoutLandmarksFollowsTheRotationToo() throws {
        let detectOnly: (inout FaceOptions) -> Void = { $0.landmarks = false; $0.contours = false; $0.classification = false }
        let upright = try XCTUnwrap(try face("astronaut.jpg", detectOnly).headEulerAngleZ)
        for (name, angle) in [("astronaut_rot_m30.jpg", Float(-30)), ("astronaut_rot_p30.jpg", 30)] {
            let result = try face(name, detectOnly)
            XCTAssertNil(result.headEulerAngleY, "yaw needs landmarks")
            // The detector's eye keypoints are coarser than the mesh, and BlazeFace
            // pulls them toward upright on tilted faces.
            XCTAssertEqual(try XCTUnwrap(result.headEulerAngleZ) - upright, angle, accuracy: 8, name)
        }
    }

    func testAMirroredFaceNegatesYawAndRoll() throws {
        let original = try face("astronaut.jpg"), mirrored = try face("astronaut_flipped.jpg")
        let yaw = try XCTUnwrap(original.headEulerAngleY), mirroredYaw = try XCTUnwrap(mirrored.headEulerAngleY)
        let roll = try XCTUnwrap(original.headEulerAngleZ), mirroredRoll = try XCTUnwrap(mirrored.headEulerAngleZ)
        XCTAssertEqual(mirroredYaw, -yaw, accuracy: 3)
        XCTAssertEqual(mirroredRoll, -roll, accuracy: 3)
        XCTAssertEqual(try XCTUnwrap(mirrored.headEulerAngleX), try XCTUnwrap(original.headEulerAngleX), accuracy: 3)
    }

    func testSmilingAstronautWithOpenEyes() throws {
        let features = try XCTUnwrap(try face("astronaut.jpg").features)
        XCTAssertGreaterThan(try XCTUnwrap(features.smilingProbability), 0.5)
        XCTAssertGreaterThan(try XCTUnwrap(features.leftEyeOpenProbability), 0.5)
        XCTAssertGreaterThan(try XCTUnwrap(features.rightEyeOpenProbability), 0.5)
    }

    func testLandmarksAreSubjectRelativeAndInsideTheFace() throws {
        let face = try face("astronaut.jpg")
        let features = try XCTUnwrap(face.features)
        let left = try XCTUnwrap(features.landmark(.leftEye)).position
        let right = try XCTUnwrap(features.landmark(.rightEye)).position
        XCTAssertGreaterThan(left.x, right.x, "the subject's left eye is on the image's right")
        let mouth = try XCTUnwrap(features.landmark(.mouthBottom)).position
        XCTAssertGreaterThan(mouth.y, left.y)
        let box = face.boundingBox
        for landmark in features.landmarks ?? [] {
            XCTAssertTrue((box.x...(box.x + box.width)).contains(landmark.position.x), "\(landmark.type)")
            XCTAssertTrue((box.y...(box.y + box.height)).contains(landmark.position.y), "\(landmark.type)")
        }
    }

    func testEveryFaceGetsContoursNotOnlyTheMostProminent() throws {
        let session = try FaceSession(models: TestData.models, options: TestData.options {
            $0.contours = true
            $0.numFaces = 4
        })
        let faces = try session.detect(TestData.image("three_faces.jpg")).faces
        XCTAssertEqual(faces.count, 3)
        for face in faces {
            let contours = try XCTUnwrap(face.features?.contours)
            XCTAssertEqual(contours.map(\.points.count), [36, 5, 5, 5, 5, 16, 16, 11, 9, 9, 9, 2, 3, 1, 1])
            XCTAssertNil(face.features?.landmarks, "landmarks were not asked for")
            XCTAssertNil(face.features?.smilingProbability, "classification was not asked for")
            XCTAssertNil(face.mesh, "the mesh was not asked for")
        }
    }

    func testMeshAndMatrixOnlyWhenAskedFor() throws {
        let full = try face("astronaut.jpg") { $0.faceMesh = true; $0.transformationMatrix = true }
        XCTAssertEqual(full.mesh?.count, 478)
        XCTAssertEqual(full.features?.transformationMatrix?.count, 16)
        let plain = try face("astronaut.jpg")
        XCTAssertNil(plain.mesh)
        XCTAssertNil(plain.features?.transformationMatrix)
    }

    func testFastModeWithNothingElseStaysDetectionOnly() throws {
        let session = try FaceSession(models: TestData.models, options: TestData.options())
        let result = try session.detect(TestData.image("astronaut.jpg"))
        XCTAssertEqual(result.faces.count, 1)
        XCTAssertNil(result.faces[0].features)
        XCTAssertNil(result.faces[0].presence)
        XCTAssertEqual(result.landmarksTime, .zero, "no landmark stage ran")
    }
}
