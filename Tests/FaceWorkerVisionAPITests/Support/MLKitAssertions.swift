import FaceWorkerMLKit
import Foundation
import XCTest

/// Everything the ML Kit guide reads of a face, read as the guide reads it.
struct GuideReading {
    var frame: CGRect
    var rotX: CGFloat?
    var rotY: CGFloat?
    var rotZ: CGFloat?
    var landmarks: [FaceLandmarkType: VisionPoint] = [:]
    var contours: [FaceContourType: [VisionPoint]] = [:]
    var smileProb: CGFloat?
    var leftEyeOpenProb: CGFloat?
    var rightEyeOpenProb: CGFloat?
    var trackingId: Int?

    /// The guide's loop over the faces, its `let`s kept.
    static func read(_ faces: [Face]) -> [GuideReading] {
        var readings: [GuideReading] = []
        for face in faces {
          let frame = face.frame
          var reading = GuideReading(frame: frame)
          if face.hasHeadEulerAngleX {
            let rotX = face.headEulerAngleX  // Head is rotated upward rotX degrees
            reading.rotX = rotX
          }
          if face.hasHeadEulerAngleY {
            let rotY = face.headEulerAngleY  // Head is rotated to the right rotY degrees
            reading.rotY = rotY
          }
          if face.hasHeadEulerAngleZ {
            let rotZ = face.headEulerAngleZ  // Head is tilted sideways rotZ degrees
            reading.rotZ = rotZ
          }

          // If landmark detection was enabled (mouth, ears, eyes, cheeks, and
          // nose available):
          for type in FaceLandmarkType.allCases {
            if let landmark = face.landmark(ofType: type) {
              let position = landmark.position
              reading.landmarks[type] = position
            }
          }

          // If contour detection was enabled:
          for type in FaceContourType.allCases {
            if let contour = face.contour(ofType: type) {
              let points = contour.points
              reading.contours[type] = points
            }
          }

          // If classification was enabled:
          if face.hasSmilingProbability {
            let smileProb = face.smilingProbability
            reading.smileProb = smileProb
          }
          if face.hasLeftEyeOpenProbability {
            let leftEyeOpenProb = face.leftEyeOpenProbability
            reading.leftEyeOpenProb = leftEyeOpenProb
          }
          if face.hasRightEyeOpenProbability {
            let rightEyeOpenProb = face.rightEyeOpenProbability
            reading.rightEyeOpenProb = rightEyeOpenProb
          }

          // If face tracking was enabled:
          if face.hasTrackingID {
            let trackingId = face.trackingID
            reading.trackingId = trackingId
          }
          readings.append(reading)
        }
        return readings
    }
}

/// The Python client's name of a landmark or contour type (`NOSE_BASE` for `noseBase`).
private func wireName(_ name: String) -> String {
    name.reduce(into: "") { text, character in
        if character.isUppercase { text.append("_") }
        text.append(character.uppercased())
    }
}

/// What the guide read against the Python client's faces.
func assertEqual(_ readings: [GuideReading], _ expected: [ClientGoldens.MLKitFace], _ what: String, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(readings.count, expected.count, "\(what): faces", file: file, line: line)
    for (index, (reading, golden)) in zip(readings, expected).enumerated() {
        let frame = reading.frame
        // The Python client gives whole pixels, halves to even.
        XCTAssertEqual([frame.minX, frame.minY, frame.width, frame.height].map { Double($0.rounded(.toNearestOrEven)) }, golden.box,
                       "\(what) face \(index): frame", file: file, line: line)
        assertOptional(reading.rotX, golden.headEulerAngleX, "\(what) face \(index): headEulerAngleX", file: file, line: line)
        assertOptional(reading.rotY, golden.headEulerAngleY, "\(what) face \(index): headEulerAngleY", file: file, line: line)
        assertOptional(reading.rotZ, golden.headEulerAngleZ, "\(what) face \(index): headEulerAngleZ", file: file, line: line)
        assertOptional(reading.smileProb, golden.smilingProbability, "\(what) face \(index): smilingProbability", file: file, line: line)
        assertOptional(reading.leftEyeOpenProb, golden.leftEyeOpenProbability, "\(what) face \(index): leftEyeOpenProbability", file: file, line: line)
        assertOptional(reading.rightEyeOpenProb, golden.rightEyeOpenProbability, "\(what) face \(index): rightEyeOpenProbability", file: file, line: line)
        XCTAssertEqual(reading.trackingId, golden.trackingId, "\(what) face \(index): trackingID", file: file, line: line)
        XCTAssertEqual(Set(reading.landmarks.keys.map { wireName($0.rawValue) }), Set(golden.landmarks.keys), "\(what) face \(index): landmark types", file: file, line: line)
        for (type, position) in reading.landmarks {
            guard let point = golden.landmarks[wireName(type.rawValue)] else { continue }
            assertSame(Double(position.x), point[0], "\(what) face \(index): \(type) x", file: file, line: line)
            assertSame(Double(position.y), point[1], "\(what) face \(index): \(type) y", file: file, line: line)
        }
        XCTAssertEqual(Set(reading.contours.keys.map { wireName($0.rawValue) }), Set(golden.contours.keys), "\(what) face \(index): contour types", file: file, line: line)
        for (type, points) in reading.contours {
            guard let goldenPoints = golden.contours[wireName(type.rawValue)] else { continue }
            XCTAssertEqual(points.count, goldenPoints.count, "\(what) face \(index): \(type) points", file: file, line: line)
            for (point, values) in zip(points, goldenPoints) {
                assertSame(Double(point.x), values[0], "\(what) face \(index): \(type) x", file: file, line: line)
                assertSame(Double(point.y), values[1], "\(what) face \(index): \(type) y", file: file, line: line)
            }
        }
    }
}

private func assertOptional(_ actual: CGFloat?, _ expected: Double?, _ what: String, file: StaticString, line: UInt) {
    XCTAssertEqual(actual == nil, expected == nil, "\(what): presence", file: file, line: line)
    if let actual, let expected { assertSame(Double(actual), expected, what, file: file, line: line) }
}
