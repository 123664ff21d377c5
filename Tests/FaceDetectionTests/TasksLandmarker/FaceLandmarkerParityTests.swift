@testable import FaceDetection
import Imaging
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
            comparePoints(mesh, golden, width: width, height: height)
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

        mutating func comparePoints(_ mesh: [NormalizedLandmark], _ golden: LandmarkerGoldens.GoldenFace, width: Int, height: Int) {
            let w = Float(width), h = Float(height)
            let right = golden.points[33], left = golden.points[263]
            let interOcular = hypot((right[0] - left[0]) * w, (right[1] - left[1]) * h)
            for (point, reference) in zip(mesh, golden.points) {
                let dx = (point.x - reference[0]) * w, dy = (point.y - reference[1]) * h, dz = (point.z - reference[2]) * w
                points.append((dx * dx + dy * dy + dz * dz).squareRoot() / interOcular)
            }
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

    /// How far a mesh's point 1 (the nose tip) is from a golden face's.
    private static func distance(_ mesh: [NormalizedLandmark]?, _ golden: LandmarkerGoldens.GoldenFace) -> Float {
        guard let point = mesh?[1] else { return .infinity }
        return hypot(point.x - golden.points[1][0], point.y - golden.points[1][1])
    }

    /// Our face nearest to each golden face, so the order of equal-scored faces does not matter.
    private func pairs(_ faces: [Face], _ goldens: [LandmarkerGoldens.GoldenFace]) -> [(Face, LandmarkerGoldens.GoldenFace)] {
        goldens.compactMap { golden in
            faces.min { Self.distance($0.mesh, golden) < Self.distance($1.mesh, golden) }.map { ($0, golden) }
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

    /// One tracking step alone: the next frame's region from MediaPipe's own
    /// points of one frame, our mesh on the next frame, against MediaPipe's
    /// points there. In the two-face video nothing is smoothed, so this checks
    /// the landmarks-to-region rule and the crop without the feedback loop,
    /// which amplifies any difference from frame to frame.
    func testOneTrackingStepFromMediaPipesOwnPoints() throws {
        let video = try XCTUnwrap(LandmarkerGoldens.shared.videos["two_faces_video"])
        let stage = try LandmarkerMesh(models: XCTUnwrap(TestData.models.faceLandmarker))
        let engine = FaceEngine(models: TestData.models)
        var errors = Errors()
        for (frame, next) in zip(video.frames, video.frames.dropFirst()) {
            let image = try TestData.image(next.file)
            for golden in frame.faces {
                let mesh = golden.points.map { NormalizedLandmark(x: $0[0], y: $0[1], z: $0[2]) }
                let roi = RegionOfInterest(mesh: mesh, imageWidth: image.width, imageHeight: image.height)
                let found = try XCTUnwrap(try TestData.upright(image) { frame in
                    try stage.landmarks(in: frame, roi: roi, engine: engine, minPresence: 0.5)
                })
                let reference = try XCTUnwrap(next.faces.min { Self.distance(found.mesh, $0) < Self.distance(found.mesh, $1) })
                errors.comparePoints(found.mesh, reference, width: image.width, height: image.height)
            }
        }
        XCTAssertEqual(errors.points.count, 478 * 2 * (video.frames.count - 1))
        let largest = errors.points.max() ?? 1
        print("Face Landmarker parity, one tracking step: points max \(largest * 100) % of the inter-ocular distance")
        XCTAssertLessThanOrEqual(largest, 0.0005)
    }

    /// The blendshape and geometry stages alone, fed MediaPipe's own points
    /// of every golden face: what remains is the stages' own difference.
    func testBlendshapesAndMatrixFromMediaPipesOwnPoints() throws {
        let bundle = try XCTUnwrap(TestData.models.faceLandmarker)
        let stage = try LandmarkerBlendshapes(model: XCTUnwrap(bundle.blendshapes))
        let geometry = FaceGeometry(metadata: bundle.geometry)
        let engine = FaceEngine(models: TestData.models)
        let goldens = LandmarkerGoldens.shared
        var faces: [(LandmarkerGoldens.GoldenFace, PixelSize)] = goldens.images.values.flatMap { image in
            image.faces.map { ($0, PixelSize(width: image.width, height: image.height)) }
        }
        for video in goldens.videos.values {
            for frame in video.frames {
                let size = try TestData.image(frame.file).size
                faces += frame.faces.map { ($0, size) }
            }
        }
        var blendshapeError: Float = 0, matrixError: Float = 0
        for (golden, size) in faces {
            let mesh = golden.points.map { NormalizedLandmark(x: $0[0], y: $0[1], z: $0[2]) }
            let input = try XCTUnwrap(LandmarkerBlendshapes.input(mesh: mesh, image: size))
            let scores = try stage.scores(input: input, engine: engine)
            blendshapeError = max(blendshapeError, zip(scores, golden.blendshapes).map { abs($0 - $1) }.max()!)
            let matrix = try XCTUnwrap(geometry.pose(of: mesh, imageWidth: size.width, imageHeight: size.height)).transformationMatrix
            let reference = golden.matrix.flatMap { $0 }
            matrixError = max(matrixError, zip(matrix, reference).map { abs($0 - $1) }.max()! / reference.map(abs).max()!)
        }
        print("Face Landmarker parity, stages alone on \(faces.count) faces: blendshapes max \(blendshapeError), matrices max \(matrixError) relative")
        XCTAssertLessThanOrEqual(blendshapeError, 1e-3)
        XCTAssertLessThanOrEqual(matrixError, 1e-4)
    }
}
