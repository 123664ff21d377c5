import XCTest
import FaceDetection

final class MLKitOutputsTests: XCTestCase {
    private let mesh = SyntheticFace(pitch: 5, yaw: 10, roll: -5).mesh()

    private func computed(_ outputs: MLKitOutputs) -> Set<String> {
        let features = MLKitFaceFeatures.compute(mesh: mesh, imageWidth: 640, imageHeight: 480, outputs: outputs)
        var present: Set<String> = []
        if features.landmarks != nil { present.insert("landmarks") }
        if features.contours != nil { present.insert("contours") }
        if features.eulerAngles != nil { present.insert("eulerAngles") }
        if features.smilingProbability != nil { present.insert("smiling") }
        if features.leftEyeOpenProbability != nil { present.insert("leftEyeOpen") }
        if features.rightEyeOpenProbability != nil { present.insert("rightEyeOpen") }
        if features.transformationMatrix != nil { present.insert("transformationMatrix") }
        return present
    }

    func testOnlyTheRequestedOutputsAreComputed() {
        XCTAssertEqual(computed([]), [])
        XCTAssertEqual(computed(.landmarks), ["landmarks"])
        XCTAssertEqual(computed(.contours), ["contours"])
        XCTAssertEqual(computed(.classification), ["smiling", "leftEyeOpen", "rightEyeOpen"])
        XCTAssertEqual(computed(.eulerAngles), ["eulerAngles"])
        XCTAssertEqual(computed(.transformationMatrix), ["transformationMatrix"])
        XCTAssertEqual(computed([.landmarks, .eulerAngles]), ["landmarks", "eulerAngles"])
        XCTAssertEqual(computed(.all), ["landmarks", "contours", "eulerAngles", "smiling", "leftEyeOpen", "rightEyeOpen", "transformationMatrix"])
    }

    func testTheSameFaceGivesTheSameOutputsWhicheverAreAskedFor() {
        let all = MLKitFaceFeatures.compute(mesh: mesh, imageWidth: 640, imageHeight: 480, outputs: .all)
        let angles = MLKitFaceFeatures.compute(mesh: mesh, imageWidth: 640, imageHeight: 480, outputs: .eulerAngles)
        let matrix = MLKitFaceFeatures.compute(mesh: mesh, imageWidth: 640, imageHeight: 480, outputs: .transformationMatrix)
        XCTAssertEqual(angles.eulerAngles, all.eulerAngles)
        XCTAssertEqual(matrix.transformationMatrix, all.transformationMatrix)
    }

    func testAMeshTooShortOrAnEmptyImageGivesNothing() {
        XCTAssertEqual(MLKitFaceFeatures.compute(mesh: Array(mesh.prefix(400)), imageWidth: 640, imageHeight: 480, outputs: .all),
                       MLKitFaceFeatures())
        XCTAssertEqual(MLKitFaceFeatures.compute(mesh: mesh, imageWidth: 640, imageHeight: 0, outputs: .all), MLKitFaceFeatures())
    }
}
