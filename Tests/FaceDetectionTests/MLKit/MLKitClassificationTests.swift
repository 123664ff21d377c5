import XCTest
@testable import FaceDetection

final class MLKitClassificationTests: XCTestCase {
    private struct Probabilities {
        let smiling: Float
        let leftEyeOpen: Float
        let rightEyeOpen: Float
    }

    private func classify(_ face: SyntheticFace, points: [SIMD3<Double>] = SyntheticFace.modelPoints) throws -> Probabilities {
        let features = MLKitFaceFeatures.compute(
            mesh: face.mesh(points: points), imageWidth: face.imageWidth, imageHeight: face.imageHeight, outputs: .classification)
        let result = Probabilities(
            smiling: try XCTUnwrap(features.smilingProbability),
            leftEyeOpen: try XCTUnwrap(features.leftEyeOpenProbability),
            rightEyeOpen: try XCTUnwrap(features.rightEyeOpenProbability))
        for value in [result.smiling, result.leftEyeOpen, result.rightEyeOpen] {
            XCTAssertTrue((0...1).contains(value))
        }
        return result
    }

    /// The model with the subject's left eye shut: each upper-lid point moved onto the lower-lid
    /// point facing it.
    private static let leftEyeClosed: [SIMD3<Double>] = {
        var points = SyntheticFace.modelPoints
        for (upper, lower) in zip([466, 388, 387, 386, 385, 384, 398], [249, 390, 373, 374, 380, 381, 382]) {
            points[upper] = points[lower]
        }
        return points
    }()

    /// The model with its mouth corners pulled out and up, by `amount` of a broad smile: the mouth
    /// 30 % wider, the corners 0.13 eye-corner distances higher.
    private static func smiling(_ amount: Double) -> [SIMD3<Double>] {
        var points = SyntheticFace.modelPoints
        let mouthWidth = points[291].x - points[61].x
        let eyeSpan = points[263].x - points[33].x
        points[61] += SIMD3(-0.15 * mouthWidth, 0.13 * eyeSpan, 0) * amount
        points[291] += SIMD3(0.15 * mouthWidth, 0.13 * eyeSpan, 0) * amount
        return points
    }

    func testANeutralFaceHasOpenEyesAndNoSmile() throws {
        let neutral = try classify(SyntheticFace())
        XCTAssertGreaterThan(neutral.leftEyeOpen, 0.9)
        XCTAssertGreaterThan(neutral.rightEyeOpen, 0.9)
        XCTAssertLessThan(neutral.smiling, 0.2)
    }

    func testClosingTheSubjectsLeftEyeDropsOnlyItsProbability() throws {
        let closed = try classify(SyntheticFace(), points: Self.leftEyeClosed)
        XCTAssertLessThan(closed.leftEyeOpen, 0.05)
        XCTAssertGreaterThan(closed.rightEyeOpen, 0.9)

        var halfShut = SyntheticFace.modelPoints
        for (upper, lower) in zip([466, 388, 387, 386, 385, 384, 398], [249, 390, 373, 374, 380, 381, 382]) {
            halfShut[upper] = (halfShut[upper] + halfShut[lower]) / 2
        }
        let half = try classify(SyntheticFace(), points: halfShut)
        XCTAssertLessThan(half.leftEyeOpen, try classify(SyntheticFace()).leftEyeOpen)
        XCTAssertGreaterThan(half.leftEyeOpen, closed.leftEyeOpen)
    }

    func testWidenedRaisedMouthCornersRaiseTheSmile() throws {
        var previous = try classify(SyntheticFace()).smiling
        for amount in [0.5, 1.0] {
            let smile = try classify(SyntheticFace(), points: Self.smiling(amount)).smiling
            XCTAssertGreaterThan(smile, previous + 0.1, "amount \(amount)")
            previous = smile
        }
        XCTAssertGreaterThan(previous, 0.8, "a broad smile")
    }

    // The measures are taken on the face itself, in metric space, so neither the face's place,
    // size and rotation in the picture nor a turned head changes them much; the only drift left
    // comes from the mesh's depth being a scaled approximation of the true one.
    func testProbabilitiesHoldAcrossPoseDistanceAndImageSize() throws {
        for points in [SyntheticFace.modelPoints, Self.leftEyeClosed, Self.smiling(0.7)] {
            let reference = try classify(SyntheticFace(), points: points)
            let variants = [
                SyntheticFace(roll: 35), SyntheticFace(roll: -60, offsetX: 10),
                SyntheticFace(imageWidth: 1920, imageHeight: 1440), SyntheticFace(imageWidth: 320, imageHeight: 240),
                SyntheticFace(distance: 35), SyntheticFace(distance: 150),
                SyntheticFace(yaw: 30), SyntheticFace(pitch: -20, yaw: -15, roll: 10),
            ]
            for face in variants {
                let other = try classify(face, points: points)
                let context = "\(face)"
                XCTAssertEqual(other.smiling, reference.smiling, accuracy: 0.03, context)
                XCTAssertEqual(other.leftEyeOpen, reference.leftEyeOpen, accuracy: 0.01, context)
                XCTAssertEqual(other.rightEyeOpen, reference.rightEyeOpen, accuracy: 0.01, context)
            }
        }
    }

    func testAFaceTooSmallToFitIsMeasuredInTheImage() throws {
        let mesh = SyntheticFace().mesh(points: Self.leftEyeClosed)
        let dot = mesh.map { NormalizedLandmark(x: 0.5 + ($0.x - 0.5) * 0.001, y: 0.5 + ($0.y - 0.5) * 0.001, z: $0.z * 0.001) }
        let features = MLKitFaceFeatures.compute(mesh: dot, imageWidth: 640, imageHeight: 480, outputs: .all)
        XCTAssertNil(features.eulerAngles)
        XCTAssertLessThan(try XCTUnwrap(features.leftEyeOpenProbability), 0.05)
        XCTAssertGreaterThan(try XCTUnwrap(features.rightEyeOpenProbability), 0.9)
        XCTAssertLessThan(try XCTUnwrap(features.smilingProbability), 0.2)
    }
}
