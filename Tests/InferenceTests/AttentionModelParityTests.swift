import Inference
import XCTest

/// The whole attention mesh, run as XNNPACK segments with our custom
/// operators between them, against MediaPipe's run of the same model on the
/// same crops: every raw output tensor, element by element.
final class AttentionModelParityTests: XCTestCase {
    func testEveryOutputMatchesMediaPipe() throws {
        let model = try CompiledModel(path: modelsDirectory.appendingPathComponent("face_landmark_with_attention.tflite").path)
        let manifest = try AttentionGoldens.model()
        XCTAssertGreaterThanOrEqual(manifest.cases.count, 5)
        for threads in [1, 2] {
            let runtime = try Runtime(model: model, threads: threads)
            for testCase in manifest.cases {
                let crop = try AttentionGoldens.bytes("model/\(testCase.crop)")
                let outputs = try runtime.run(crop.map { Float($0) / 255 })
                XCTAssertEqual(outputs.count, 7)
                for (index, (ours, expected)) in zip(outputs, testCase.outputs).enumerated() {
                    XCTAssertEqual(model.outputShapes[index], expected.shape, "\(testCase.name) \(expected.name)")
                    let (count, worst) = GoldenManifest.mismatches(ours, try AttentionGoldens.floats("model/\(expected.file)"))
                    XCTAssertEqual(count, 0, "\(testCase.name) \(expected.name), \(threads) threads: \(count) values differ; \(worst)")
                }
            }
        }
    }

    func testTheModelRunsAsTwoSegmentsAroundTheCustomOperators() throws {
        let model = try CompiledModel(path: modelsDirectory.appendingPathComponent("face_landmark_with_attention.tflite").path)
        let steps = try Runtime(model: model).stepNames
        XCTAssertEqual(steps.count, 4, "\(steps)")
        XCTAssertTrue(steps[0].hasPrefix("segment 0") && steps[2].hasPrefix("segment 1"), "\(steps)")
        XCTAssertTrue(steps[1].contains("Landmarks2TransformMatrix") && steps[1].contains("TransformTensorBilinear"), steps[1])
        XCTAssertTrue(steps[3].contains("TransformLandmarks"), steps[3])
    }
}
