@testable import FaceDetection
import XCTest

/// Our landmark stage against MediaPipe's solutions.face_mesh on the same JPEGs.
///
/// Refine-off MediaPipe runs the very 468-point face mesh model that serves
/// the ML Kit outputs when the 478 points are not asked for, so that path must
/// match it (mean within 1 % of the face width), from our own detections.
final class LandmarkParityTests: XCTestCase {
    /// The face of `faces` whose mesh is nearest to a reference point.
    private func nearest(_ faces: [[NormalizedLandmark]], to point: [Float]) -> [NormalizedLandmark]? {
        faces.min { a, b in hypot(a[1].x - point[0], a[1].y - point[1]) < hypot(b[1].x - point[0], b[1].y - point[1]) }
    }

    func testPlainMeshMatchesMediaPipe() throws {
        let models = TestData.models
        let engine = FaceEngine(models: models)
        let detector = FaceDetector(performance: .fast, models: models)
        let meshStage = LegacyMeshStage(models: models)
        for (name, entry) in TestData.goldens.images.sorted(by: { $0.key < $1.key }) {
            let image = try TestData.image(name)
            let faces = try TestData.upright(image) { frame in
                try detector.detect(frame, engine: engine, minScore: 0.5, suppressionThreshold: 0.3).compactMap { detection in
                    let roi = RegionOfInterest(detection: detection, imageWidth: image.width, imageHeight: image.height)
                    return try meshStage.landmarks(in: frame, roi: roi, engine: engine, minPresence: 0.5, refined: false)?.mesh
                }
            }
            XCTAssertEqual(faces.count, entry.mesh.count, "\(name): faces with landmarks")
            let width = Float(image.width), height = Float(image.height)
            for reference in entry.mesh {
                guard let mesh = nearest(faces, to: reference[1]) else { continue }
                XCTAssertEqual(mesh.count, 468)
                let xs = reference.map { $0[0] * width }
                let faceWidth = xs.max()! - xs.min()!
                let total = zip(mesh, reference).reduce(Float(0)) { sum, pair in
                    sum + hypot((pair.0.x - pair.1[0]) * width, (pair.0.y - pair.1[1]) * height)
                }
                let meanError = total / Float(mesh.count) / faceWidth
                XCTAssertLessThanOrEqual(meanError, 0.01, "\(name): mean mesh error \(meanError * 100) % of the face width")
            }
        }
    }
}
