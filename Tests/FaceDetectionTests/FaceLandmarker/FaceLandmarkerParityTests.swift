@testable import FaceDetection
import XCTest

/// The Face Landmarker pipeline against MediaPipe Tasks' own FaceLandmarker
/// (0.10.14, the same bundle) on the fixtures: stills in image mode, both
/// videos in video mode (tracking, and smoothing with one face).
///
/// Points: 3-D distance in pixels (z on the width's scale, as MediaPipe's z
/// is on x's) over the inter-ocular distance (points 33 and 263, MediaPipe's),
/// at most 0.5 %, median at most 0.1 %. Blendshapes: 0.01 absolute. Matrices:
/// largest entry difference over the golden matrix's largest absolute entry, 1e-3.
final class FaceLandmarkerParityTests: XCTestCase {
    /// Every error of one comparison, for the bounds and the printed summary.
    private struct Errors {
        var points: [Float] = []
        var blendshapes: [Float] = []
        var matrices: [Float] = []
        var faces = 0

        mutating func compare(_ face: Face, _ golden: LandmarkerGoldens.GoldenFace, width: Int, height: Int, context: String) {
            guard let mesh = face.mesh, mesh.count == 478 else { return XCTFail("\(context): no 478-point mesh") }
            let w = Float(width), h = Float(height)
            let right = golden.points[33], left = golden.points[263]
            let interOcular = hypot((right[0] - left[0]) * w, (right[1] - left[1]) * h)
            for (point, reference) in zip(mesh, golden.points) {
                let dx = (point.x - reference[0]) * w, dy = (point.y - reference[1]) * h, dz = (point.z - reference[2]) * w
                points.append((dx * dx + dy * dy + dz * dz).squareRoot() / interOcular)
            }
            if let scores = face.blendshapes, scores.count == 52 {
                blendshapes += zip(scores, golden.blendshapes).map { abs($0 - $1) }
            } else {
                XCTFail("\(context): no 52 blendshape scores")
            }
            if let matrix = face.features?.transformationMatrix, matrix.count == 16 {
                let reference = golden.matrix.flatMap { $0 }
                let largest = reference.map(abs).max()!
                matrices.append(zip(matrix, reference).map { abs($0 - $1) }.max()! / largest)
            } else {
                XCTFail("\(context): no transformation matrix")
            }
            faces += 1
        }

        func check(_ label: String) {
            let sorted = points.sorted()
            let median = sorted.isEmpty ? 0 : sorted[sorted.count / 2]
            let maxPoint = sorted.last ?? 0, maxBlend = blendshapes.max() ?? 0, maxMatrix = matrices.max() ?? 0
            print("""
                Face Landmarker parity, \(label): \(faces) faces; points max \(maxPoint * 100) % median \(median * 100) % \
                of the inter-ocular distance; blendshapes max \(maxBlend); matrices max \(maxMatrix) relative
                """)
            XCTAssertLessThanOrEqual(maxPoint, 0.005, "\(label): largest point error")
            XCTAssertLessThanOrEqual(median, 0.001, "\(label): median point error")
            XCTAssertLessThanOrEqual(maxBlend, 0.01, "\(label): largest blendshape error")
            XCTAssertLessThanOrEqual(maxMatrix, 1e-3, "\(label): largest matrix error")
        }
    }

    private func options(_ mode: FaceOptions.RunningMode, numFaces: Int) -> FaceOptions {
        TestData.options(mode) {
            $0.meshModel = .faceLandmarker
            $0.faceMesh = true
            $0.faceBlendshapes = true
            $0.transformationMatrix = true
            $0.numFaces = numFaces
        }
    }

    /// Our face nearest to each golden face (by point 1), so the order of equal-scored faces does not matter.
    private func pairs(_ faces: [Face], _ goldens: [LandmarkerGoldens.GoldenFace]) -> [(Face, LandmarkerGoldens.GoldenFace)] {
        goldens.compactMap { golden in
            faces.min { a, b in
                func distance(_ face: Face) -> Float {
                    guard let point = face.mesh?[1] else { return .infinity }
                    return hypot(point.x - golden.points[1][0], point.y - golden.points[1][1])
                }
                return distance(a) < distance(b)
            }.map { ($0, golden) }
        }
    }

    func testStillsMatchMediaPipeTasks() throws {
        var errors = Errors()
        for (name, golden) in LandmarkerGoldens.shared.images.sorted(by: { $0.key < $1.key }) {
            let session = try FaceSession(models: TestData.models, options: options(.image, numFaces: golden.num_faces))
            let result = try session.detect(TestData.image(name))
            XCTAssertEqual(result.faces.count, golden.faces.count, "\(name): faces")
            for (face, reference) in pairs(result.faces, golden.faces) {
                errors.compare(face, reference, width: golden.width, height: golden.height, context: name)
            }
        }
        errors.check("stills")
    }

    func testVideosMatchMediaPipeTasks() throws {
        for (name, video) in LandmarkerGoldens.shared.videos.sorted(by: { $0.key < $1.key }) {
            var errors = Errors()
            let session = try FaceSession(models: TestData.models, options: options(.video, numFaces: video.num_faces))
            for frame in video.frames {
                let image = try TestData.image(frame.file)
                let result = try session.detectForVideo(image, timestampMs: frame.timestamp_ms)
                XCTAssertEqual(result.faces.count, frame.faces.count, "\(frame.file): faces")
                for (face, reference) in pairs(result.faces, frame.faces) {
                    errors.compare(face, reference, width: image.width, height: image.height, context: frame.file)
                }
            }
            errors.check(name)
        }
    }
}
