import XCTest
@testable import FaceDetection

final class MLKitLandmarkAndContourTests: XCTestCase {
    private func features(_ face: SyntheticFace = SyntheticFace()) -> MLKitFaceFeatures {
        MLKitFaceFeatures.compute(mesh: face.mesh(), imageWidth: face.imageWidth, imageHeight: face.imageHeight, outputs: [.landmarks, .contours])
    }

    private func position(_ features: MLKitFaceFeatures, _ type: MLKitLandmarkType) throws -> PixelPoint {
        try XCTUnwrap(features.landmark(type)).position
    }

    private func points(_ features: MLKitFaceFeatures, _ type: MLKitContourType) throws -> [PixelPoint] {
        try XCTUnwrap(features.contour(type)).points
    }

    func testTypesCarryMLKitAndroidValues() {
        let landmarks = Dictionary(uniqueKeysWithValues: MLKitLandmarkType.allCases.map { ($0, $0.rawValue) })
        XCTAssertEqual(landmarks, [.mouthBottom: 0, .leftCheek: 1, .leftEar: 3, .leftEye: 4, .mouthLeft: 5,
                                   .noseBase: 6, .rightCheek: 7, .rightEar: 9, .rightEye: 10, .mouthRight: 11])
        XCTAssertEqual(MLKitContourType.allCases.map(\.rawValue), Array(1...15))
    }

    func testEveryContourHasMLKitsPointCount() throws {
        let documented: [MLKitContourType: Int] = [
            .face: 36, .leftEyebrowTop: 5, .leftEyebrowBottom: 5, .rightEyebrowTop: 5, .rightEyebrowBottom: 5,
            .leftEye: 16, .rightEye: 16, .upperLipTop: 11, .upperLipBottom: 9, .lowerLipTop: 9,
            .lowerLipBottom: 9, .noseBridge: 2, .noseBottom: 3, .leftCheek: 1, .rightCheek: 1,
        ]
        let contours = try XCTUnwrap(features().contours)
        XCTAssertEqual(contours.map(\.type), MLKitContourType.allCases)
        for contour in contours {
            XCTAssertEqual(contour.type.pointCount, documented[contour.type])
            XCTAssertEqual(contour.points.count, contour.type.pointCount, "\(contour.type)")
        }
        XCTAssertEqual(contours.reduce(0) { $0 + $1.points.count }, 133)
        XCTAssertEqual(try XCTUnwrap(features().landmarks).map(\.type), MLKitLandmarkType.allCases)
    }

    func testLeftAndRightAreTheSubjects() throws {
        let face = features()
        let pairs: [(MLKitLandmarkType, MLKitLandmarkType)] = [
            (.leftEye, .rightEye), (.mouthLeft, .mouthRight), (.leftEar, .rightEar), (.leftCheek, .rightCheek),
        ]
        for (left, right) in pairs {
            XCTAssertGreaterThan(try position(face, left).x, try position(face, right).x + 20, "\(left) is on the image's right")
        }
        let contourPairs: [(MLKitContourType, MLKitContourType)] = [
            (.leftEye, .rightEye), (.leftEyebrowTop, .rightEyebrowTop), (.leftEyebrowBottom, .rightEyebrowBottom),
            (.leftCheek, .rightCheek),
        ]
        for (left, right) in contourPairs {
            let leftX = try points(face, left).map(\.x).min()!
            let rightX = try points(face, right).map(\.x).max()!
            XCTAssertGreaterThan(leftX, rightX, "\(left) lies wholly right of \(right) in the image")
        }
    }

    func testLandmarksSitWhereTheirNamesSay() throws {
        let face = features()
        let leftEye = try position(face, .leftEye), rightEye = try position(face, .rightEye)
        let noseBase = try position(face, .noseBase), mouthBottom = try position(face, .mouthBottom)
        let mouthLeft = try position(face, .mouthLeft)
        XCTAssertLessThan(leftEye.y, noseBase.y)
        XCTAssertLessThan(noseBase.y, mouthLeft.y)
        XCTAssertLessThan(mouthLeft.y, mouthBottom.y)
        XCTAssertEqual(noseBase.x, (leftEye.x + rightEye.x) / 2, accuracy: 1)
        XCTAssertEqual(mouthBottom.x, noseBase.x, accuracy: 1)
        let oval = try points(face, .face)
        let ovalRight = oval.map(\.x).max()!, ovalLeft = oval.map(\.x).min()!
        XCTAssertEqual(try position(face, .leftEar).x, ovalRight, accuracy: 3, "ears at the face's sides")
        XCTAssertEqual(try position(face, .rightEar).x, ovalLeft, accuracy: 3)
    }

    func testEyeCentresComeFromTheIrisesOrElseTheEyeOutlines() throws {
        let face = SyntheticFace(yaw: 10)
        let mesh = face.mesh()
        let withIris = features(face)
        XCTAssertEqual(try position(withIris, .leftEye), mesh[473].pixel(width: 640, height: 480))
        XCTAssertEqual(try position(withIris, .rightEye), mesh[468].pixel(width: 640, height: 480))

        var withoutIris = face
        withoutIris.withIris = false
        let outlineOnly = features(withoutIris)
        for (eye, outline) in [(MLKitLandmarkType.leftEye, MLKitContourType.leftEye), (.rightEye, .rightEye)] {
            let ring = try points(outlineOnly, outline)
            let centre = try position(outlineOnly, eye)
            XCTAssertEqual(centre.x, ring.map(\.x).reduce(0, +) / 16, accuracy: 1e-3)
            XCTAssertEqual(centre.y, ring.map(\.y).reduce(0, +) / 16, accuracy: 1e-3)
        }
    }

    func testContoursLieInsideTheFaceOvalsBox() throws {
        for face in [SyntheticFace(), SyntheticFace(pitch: 15, yaw: -25, roll: 20), SyntheticFace(pitch: -15, yaw: 30, roll: -25)] {
            let contours = try XCTUnwrap(features(face).contours)
            let oval = contours[0].points
            let (minX, maxX) = (oval.map(\.x).min()!, oval.map(\.x).max()!)
            let (minY, maxY) = (oval.map(\.y).min()!, oval.map(\.y).max()!)
            for contour in contours.dropFirst() {
                for point in contour.points {
                    XCTAssertTrue((minX...maxX).contains(point.x) && (minY...maxY).contains(point.y), "\(contour.type) \(point)")
                }
            }
        }
    }

    func testClosedContoursGoClockwiseFromTheirDocumentedStart() throws {
        let face = features()
        let oval = try points(face, .face)
        XCTAssertEqual(oval[0].y, oval.map(\.y).min()!, accuracy: 2, "starts at the top")
        XCTAssertGreaterThan(oval[1].x, oval[0].x, "then goes toward the image's right")
        for type in [MLKitContourType.face, .leftEye, .rightEye] {
            let ring = try points(face, type)
            // The shoelace sum is positive for clockwise order in image coordinates (y down).
            let area = ring.indices.reduce(Float(0)) { sum, i in
                let a = ring[i], b = ring[(i + 1) % ring.count]
                return sum + (a.x * b.y - b.x * a.y)
            }
            XCTAssertGreaterThan(area, 0, "\(type) goes clockwise")
        }
        for type in [MLKitContourType.leftEye, .rightEye] {
            let ring = try points(face, type)
            XCTAssertEqual(ring[0].x, ring.map(\.x).min()!, "\(type) starts at its image-left corner")
            XCTAssertLessThan(ring[4].y, ring[12].y, "\(type) follows the upper lid first")
        }
    }

    func testOpenContoursRunFromTheSubjectsRightToLeft() throws {
        let face = features(SyntheticFace(yaw: 5))
        for type in [MLKitContourType.leftEyebrowTop, .leftEyebrowBottom, .rightEyebrowTop, .rightEyebrowBottom,
                     .upperLipTop, .upperLipBottom, .lowerLipTop, .lowerLipBottom] {
            let line = try points(face, type)
            for (a, b) in zip(line, line.dropFirst()) {
                XCTAssertLessThan(a.x, b.x, "\(type) runs left to right in the image")
            }
        }
        let upperLip = try points(face, .upperLipTop)
        XCTAssertEqual(upperLip.first, try position(face, .mouthRight))
        XCTAssertEqual(upperLip.last, try position(face, .mouthLeft))
        let bridge = try points(face, .noseBridge)
        XCTAssertLessThan(bridge[0].y, bridge[1].y, "the bridge runs down to the tip")
        let bottom = try points(face, .noseBottom)
        XCTAssertEqual(bottom[0], try position(face, .noseBase), "the nose bottom starts at its centre")
        XCTAssertLessThan(bottom[1].x, bottom[0].x)
        XCTAssertGreaterThan(bottom[2].x, bottom[0].x)
    }

    func testPositionsAreInPixelsOfTheGivenImage() throws {
        let mesh = SyntheticFace(yaw: 12).mesh()
        let small = MLKitFaceFeatures.compute(mesh: mesh, imageWidth: 640, imageHeight: 480, outputs: [.landmarks, .contours])
        let large = MLKitFaceFeatures.compute(mesh: mesh, imageWidth: 1280, imageHeight: 1440, outputs: [.landmarks, .contours])
        for (a, b) in zip(try XCTUnwrap(small.landmarks), try XCTUnwrap(large.landmarks)) {
            XCTAssertEqual(b.position.x, a.position.x * 2, accuracy: 1e-3)
            XCTAssertEqual(b.position.y, a.position.y * 3, accuracy: 1e-3)
        }
        let mouth = mesh[13].pixel(width: 1280, height: 1440)
        XCTAssertEqual(try points(large, .upperLipBottom)[4], mouth)
    }
}
