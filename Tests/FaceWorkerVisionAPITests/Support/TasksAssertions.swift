import FaceWorkerTasksVision
import Foundation
import XCTest

/// A detector result against the Python client's.
func assertEqual(_ detections: [Detection], _ expected: [ClientGoldens.Detection], _ what: String, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(detections.count, expected.count, "\(what): faces", file: file, line: line)
    for (index, (detection, golden)) in zip(detections, expected).enumerated() {
        let box = detection.boundingBox
        XCTAssertEqual([box.minX, box.minY, box.width, box.height].map(Double.init), golden.box, "\(what) face \(index): box", file: file, line: line)
        XCTAssertEqual(detection.categories.count, 1, file: file, line: line)
        assertSame(Double(detection.categories[0].score), Double(golden.score), "\(what) face \(index): score", file: file, line: line)
        let keypoints = detection.keypoints ?? []
        XCTAssertEqual(keypoints.map(\.label), golden.labels, "\(what) face \(index): keypoint labels", file: file, line: line)
        for (keypoint, point) in zip(keypoints, golden.keypoints) {
            assertSame(Double(keypoint.location.x), point[0], "\(what) face \(index): keypoint x", file: file, line: line)
            assertSame(Double(keypoint.location.y), point[1], "\(what) face \(index): keypoint y", file: file, line: line)
        }
    }
}

/// A landmarker result against the Python client's.
func assertEqual(_ result: FaceLandmarkerResult, _ expected: ClientGoldens.Landmarks, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(result.faceLandmarks.count, expected.landmarks.count, "\(what): faces", file: file, line: line)
    for (face, golden) in zip(result.faceLandmarks, expected.landmarks) {
        XCTAssertEqual(face.count, golden.count, "\(what): points", file: file, line: line)
        for (point, values) in zip(face, golden) {
            assertSame(Double(point.x), Double(values[0]), "\(what): x", file: file, line: line)
            assertSame(Double(point.y), Double(values[1]), "\(what): y", file: file, line: line)
            assertSame(Double(point.z), Double(values[2]), "\(what): z", file: file, line: line)
        }
    }
    XCTAssertEqual(result.faceBlendshapes.map { $0.categories.map { $0.categoryName ?? "" } }, expected.blendshapeNames, "\(what): blendshape names", file: file, line: line)
    XCTAssertEqual(result.faceBlendshapes.map { $0.categories.map(\.index) }, expected.blendshapes.map { Array($0.indices) }, file: file, line: line)
    for (classifications, golden) in zip(result.faceBlendshapes, expected.blendshapes) {
        for (category, score) in zip(classifications.categories, golden) {
            assertSame(Double(category.score), Double(score), "\(what): \(category.categoryName ?? "")", file: file, line: line)
        }
    }
    XCTAssertEqual(result.facialTransformationMatrixes.count, expected.matrices.count, "\(what): matrices", file: file, line: line)
    for (matrix, golden) in zip(result.facialTransformationMatrixes, expected.matrices) {
        XCTAssertEqual(matrix.rows, 4, file: file, line: line)
        XCTAssertEqual(matrix.columns, 4, file: file, line: line)
        for row in 0..<4 {
            for column in 0..<4 {
                assertSame(Double(matrix.value(atRow: row, column: column)), Double(golden[4 * row + column]), "\(what): matrix", file: file, line: line)
            }
        }
    }
}
