@testable import FaceDetection
import Imaging
import XCTest

/// A face whose blendshape input points are not finite loses its blendshapes
/// for that frame, with a warning; the face and the session go on.
final class LandmarkerBlendshapeInputTests: XCTestCase {
    func testNonFinitePointsDropTheBlendshapesWithAWarning() throws {
        let options = TestData.options(.video) {
            $0.meshModel = .faceLandmarker
            $0.faceMesh = true
            $0.faceBlendshapes = true
        }
        let pipeline = try FacePipeline(models: TestData.models, options: options)
        let stage = try XCTUnwrap(pipeline.landmarkerStages?.blendshapes)
        let engine = FaceEngine(models: TestData.models)
        let image = try TestData.image("astronaut.jpg")
        var tracker = FaceTracker()
        let first = try pipeline.process(image, timestampMs: 0, tracker: &tracker, engine: engine)
        var mesh = try XCTUnwrap(first.faces.first?.mesh)
        let size = PixelSize(width: image.width, height: image.height)

        var warnings: [String] = []
        let good = try FacePipeline.blendshapes(of: mesh, image: size, stage: stage, engine: engine, face: 0, warnings: &warnings)
        XCTAssertEqual(good?.count, 52)
        XCTAssertEqual(warnings, [])

        mesh[LandmarkerBlendshapes.subset[7]].x = .nan
        XCTAssertNil(try FacePipeline.blendshapes(of: mesh, image: size, stage: stage, engine: engine, face: 0, warnings: &warnings))
        XCTAssertEqual(warnings.count, 1)
        XCTAssertTrue(warnings[0].contains("not finite"), warnings[0])
        mesh[LandmarkerBlendshapes.subset[7]].x = .infinity
        XCTAssertNil(LandmarkerBlendshapes.input(mesh: mesh, image: size))

        // The same engine and session state carry on with the next frame.
        let next = try pipeline.process(image, timestampMs: 33, tracker: &tracker, engine: engine)
        XCTAssertEqual(next.faces.first?.blendshapes?.count, 52)
        XCTAssertEqual(next.warnings, [])
    }

    func testTheSubsetIsMediaPipes() {
        XCTAssertEqual(LandmarkerBlendshapes.subset.count, 146)
        XCTAssertEqual(Set(LandmarkerBlendshapes.subset).count, 146)
        XCTAssertEqual(Array(LandmarkerBlendshapes.subset.suffix(10)), Array(468..<478))
    }
}
