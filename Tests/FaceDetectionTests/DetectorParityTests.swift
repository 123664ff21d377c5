import FaceDetection
import XCTest

/// Our detector against MediaPipe's solutions.face_detection on the same JPEGs:
/// the same faces (box IoU at least 0.9, score within 0.02), keypoints within
/// 1 % of the image width, and nothing on the images without a face.
final class DetectorParityTests: XCTestCase {
    /// How close our faces must come to MediaPipe's.
    private enum Tolerance {
        static let iou: Float = 0.9
        static let score: Float = 0.02
        static let keypoint: Float = 0.01
    }

    /// Checks every golden image.
    private func check(performance: FaceOptions.PerformanceMode,
                       golden: (PipelineGoldens.GoldenImage) -> [PipelineGoldens.GoldenDetection]) throws {
        let session = try FaceSession(models: TestData.models, options: TestData.options {
            $0.performanceMode = performance
            $0.numFaces = 8
            $0.minFaceSize = 0
        })
        for (name, entry) in TestData.goldens.images.sorted(by: { $0.key < $1.key }) {
            let image = try TestData.image(name)
            XCTAssertEqual(image.width, entry.width)
            let faces = try session.detect(image).faces
            let expected = golden(entry)
            XCTAssertEqual(faces.count, expected.count, "\(name) \(performance): face count")
            let width = Float(image.width), height = Float(image.height)
            for reference in expected {
                let box = PixelRect(x: reference.box[0] * width, y: reference.box[1] * height,
                                    width: reference.box[2] * width, height: reference.box[3] * height)
                guard let face = faces.max(by: { iou($0.boundingBox, box) < iou($1.boundingBox, box) }) else { continue }
                XCTAssertGreaterThanOrEqual(iou(face.boundingBox, box), Tolerance.iou, "\(name) \(performance): box")
                XCTAssertEqual(face.score, reference.score, accuracy: Tolerance.score, "\(name) \(performance): score")
                for (ours, theirs) in zip(face.keypoints, reference.keypoints) {
                    XCTAssertEqual(ours.x, theirs[0], accuracy: Tolerance.keypoint, "\(name) \(performance): keypoint x")
                    XCTAssertEqual(ours.y * height / width, theirs[1] * height / width, accuracy: Tolerance.keypoint, "\(name) \(performance): keypoint y")
                }
            }
        }
    }

    func testShortRangeMatchesMediaPipe() throws {
        try check(performance: .fast) { $0.detection_short }
    }

    func testFullRangeMatchesMediaPipe() throws {
        try check(performance: .accurate) { $0.detection_full }
    }
}

/// Intersection over union of two pixel rectangles.
func iou(_ a: PixelRect, _ b: PixelRect) -> Float {
    let w = min(a.x + a.width, b.x + b.width) - max(a.x, b.x)
    let h = min(a.y + a.height, b.y + b.height) - max(a.y, b.y)
    guard w > 0, h > 0 else { return 0 }
    return w * h / (a.width * a.height + b.width * b.height - w * h)
}
