import Inference
import ModelFile
import XCTest

/// The Face Landmarker's mesh and blendshape models, read from the bundle
/// `make models` fetches, against LiteRT's interpreter element by element.
final class LandmarkerParityTests: XCTestCase {
    func testEveryOutputMatchesLiteRT() throws {
        let goldens = try LandmarkerGoldens.load()
        XCTAssertEqual(goldens.models.map(\.member), ["face_landmarks_detector.tflite", "face_blendshapes.tflite"])
        for entry in goldens.models {
            let bundle = try TaskBundle(path: modelsDirectory.appendingPathComponent(entry.bundle).path)
            let model = try CompiledModel(bundle: bundle, member: entry.member, sha256: entry.sha256)
            XCTAssertEqual(model.inputShapes, [entry.inputShape])
            XCTAssertEqual(model.name, "\(entry.bundle):\(entry.member)")
            for threads in [1, 2] {
                let runtime = try Runtime(model: model, threads: threads)
                for golden in entry.cases {
                    let outputs = try runtime.run(try LandmarkerGoldens.input(golden.input, count: runtime.input().count))
                    XCTAssertEqual(outputs.count, golden.outputs.count, "\(entry.member) \(golden.name)")
                    for (index, (ours, expected)) in zip(outputs, golden.outputs).enumerated() {
                        XCTAssertEqual(model.outputShapes[index], expected.shape, "\(entry.member) output \(index)")
                        let reference = try LandmarkerGoldens.floats(expected.file)
                        let (mismatches, worst) = GoldenManifest.mismatches(ours, reference)
                        XCTAssertEqual(mismatches, 0, "\(entry.member) case \(golden.name) output \(expected.name), \(threads) threads: \(mismatches) elements differ; \(worst)")
                    }
                }
            }
        }
    }
}
