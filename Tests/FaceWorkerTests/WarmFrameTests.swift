import FaceAnalysis
import FaceDetection
import XCTest

/// The frame a worker warms on before it is ready must take every pipeline it
/// warms past the detector, or the landmark, blendshape and matrix stages
/// would stay cold for the first real frame.
final class WarmFrameTests: XCTestCase {
    func testEveryWarmedPipelineFindsOneFaceAndRunsEveryStageOnIt() throws {
        let models = try FaceModels(directory: TestPaths.models)
        let pipelines = WarmFrame.options(for: models)
        XCTAssertEqual(pipelines.map(\.meshModel), [.attentionMesh, .faceLandmarker])
        for options in pipelines {
            let session = try FaceSession(models: models, options: options)
            let result = try session.process(jpeg: WarmFrame.jpeg, timestampMs: 0)
            XCTAssertEqual(result.faces.count, 1, "\(options.meshModel)")
            let face = try XCTUnwrap(result.faces.first)
            XCTAssertEqual(face.mesh?.count, 478, "\(options.meshModel): the mesh stage ran")
            XCTAssertNotNil(face.features?.contours, "\(options.meshModel): the contours ran")
            XCTAssertNotNil(face.features?.smilingProbability, "\(options.meshModel): the classification ran")
            if options.faceBlendshapes {
                XCTAssertEqual(face.blendshapes?.count, 52, "the blendshape stage ran")
                XCTAssertEqual(face.features?.transformationMatrix?.count, 16, "the matrix stage ran")
            }
        }
    }

    func testEveryInferenceThreadWarmsOnIt() throws {
        let analyzer = try ModelAnalyzer(models: FaceModels(directory: TestPaths.models), threads: 2)
        for thread in 0..<analyzer.threads {
            XCTAssertNoThrow(try analyzer.warm(thread: thread), "thread \(thread)")
        }
    }
}
