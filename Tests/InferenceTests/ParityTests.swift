import Inference
import XCTest

/// Our XNNPACK executor against LiteRT's interpreter, element by element, on
/// every model and every golden case.
final class ParityTests: XCTestCase {
    func testEveryOutputMatchesLiteRT() throws {
        let manifest = try GoldenManifest.load()
        XCTAssertEqual(manifest.models.count, 3)
        for entry in manifest.models {
            let model = try CompiledModel(path: modelsDirectory.appendingPathComponent(entry.model).path)
            XCTAssertEqual(model.inputShapes, [entry.inputShape])
            for threads in [1, 2] {
                let runtime = try Runtime(model: model, threads: threads)
                for golden in entry.cases {
                    let input = try GoldenManifest.input(golden.input, count: runtime.input().count, range: entry.valueRange)
                    let outputs = try runtime.run(input)
                    XCTAssertEqual(outputs.count, golden.outputs.count, "\(entry.model) \(golden.name)")
                    for (index, (ours, expected)) in zip(outputs, golden.outputs).enumerated() {
                        XCTAssertEqual(model.outputShapes[index], expected.shape)
                        let reference = try GoldenManifest.floats(expected.file)
                        XCTAssertEqual(ours.count, reference.count)
                        let (mismatches, worst) = GoldenManifest.mismatches(ours, reference)
                        XCTAssertEqual(mismatches, 0, "\(entry.model) case \(golden.name) output \(expected.name), \(threads) threads: \(mismatches) elements differ; \(worst)")
                    }
                }
            }
        }
    }
}
