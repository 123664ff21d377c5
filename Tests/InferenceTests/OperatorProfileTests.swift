import Inference
import ModelFile
import XCTest

/// A runtime created for profiling reports what XNNPACK ran, operator by
/// operator, as `inference-bench --profile` prints it.
final class OperatorProfileTests: XCTestCase {
    func testAProfilingRuntimeTimesEveryXNNPACKOperator() throws {
        let model = try CompiledModel(path: modelsDirectory.appendingPathComponent("face_detection_short_range.tflite").path)
        let profiled = try Runtime(model: model, profiling: true)
        _ = try profiled.run([Float](repeating: 0.5, count: profiled.input().count))
        let times = try profiled.operatorTimes()
        let convolutions = model.graph.operators.filter {
            switch $0.kind {
            case .conv2D, .depthwiseConv2D: true
            default: false
            }
        }
        XCTAssertEqual(times.filter { $0.name.hasPrefix("Convolution") }.count, convolutions.count, "\(times.map(\.name))")
        XCTAssertEqual(Set(times.map(\.stage)), [0])
        XCTAssertThrowsError(try Runtime(model: model).operatorTimes(), "an ordinary runtime records no times")
    }
}
