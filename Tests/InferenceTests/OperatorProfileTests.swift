import Inference
import ModelFile
import XCTest

/// A runtime created for profiling reports what XNNPACK ran, operator by
/// operator, as `inference-bench --profile` prints it.
final class OperatorProfileTests: XCTestCase {
    /// Letterboxed, the detector runs its first convolution and the operators
    /// after it that keep its grid apart from the subgraph: the profile still
    /// lists every convolution.
    func testAProfilingRuntimeTimesEveryXNNPACKOperator() throws {
        for letterboxed in [false, true] {
            let model = try CompiledModel(path: modelsDirectory.appendingPathComponent("face_detection_short_range.tflite").path,
                                          letterboxedInput: letterboxed)
            let profiled = try Runtime(model: model, profiling: true)
            _ = try profiled.run([Float](repeating: 0.5, count: profiled.input().count))
            let times = try profiled.operatorTimes()
            let convolutions = model.graph.operators.filter {
                switch $0.kind {
                case .conv2D, .depthwiseConv2D: true
                default: false
                }
            }
            XCTAssertEqual(times.filter { $0.name.hasPrefix("Convolution") }.count, convolutions.count,
                           "letterboxed: \(letterboxed), \(times.map(\.name))")
            XCTAssertEqual(Set(times.map(\.stage)), [0])
            XCTAssertThrowsError(try Runtime(model: model).operatorTimes(), "an ordinary runtime records no times")
        }
    }
}
