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
                        var worst = (index: 0, error: Float(0))
                        var mismatches = 0
                        for (i, (a, b)) in zip(ours, reference).enumerated() {
                            let error = abs(a - b)
                            if !(error <= 1e-4 || error <= 1e-3 * abs(b)) { mismatches += 1 }
                            if !(error <= worst.error) { worst = (i, error) }
                        }
                        XCTAssertEqual(mismatches, 0, "\(entry.model) case \(golden.name) output \(expected.name), \(threads) threads: \(mismatches) elements differ; worst at \(worst.index): ours \(ours[worst.index]) vs LiteRT \(reference[worst.index])")
                    }
                }
            }
        }
    }
}
