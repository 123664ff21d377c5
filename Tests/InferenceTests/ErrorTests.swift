import Inference
import ModelFile
import XCTest

/// Graphs XNNPACK cannot run surface as `InferenceError`s that name the file,
/// the operator and XNNPACK's status.
final class ErrorTests: XCTestCase {
    /// input [1,4,4,3] -> CONV_2D(3x3, 2 filters) -> output [1,4,4,2]
    private func convolutionGraph(strideWidth: Int, extraOperator: Operator? = nil, extraChannels: Int = 4) -> Model {
        let filter = Tensor(name: "filter", shape: [2, 3, 3, 3], type: .float32, constant: .float([Float](repeating: 0.1, count: 54)))
        let bias = Tensor(name: "bias", shape: [2], type: .float32, constant: .float([0, 1]))
        let options = ConvolutionOptions(padding: .same, strideWidth: strideWidth, strideHeight: 1, dilationWidth: 1, dilationHeight: 1, activation: .relu)
        var operators = [Operator(kind: .conv2D(options), inputs: [0, 1, 2], outputs: [3])]
        var tensors = [
            Tensor(name: "input", shape: [1, 4, 4, 3], type: .float32, constant: nil),
            filter, bias,
            Tensor(name: "output", shape: [1, 4, 4, 2], type: .float32, constant: nil),
        ]
        var outputs = [3]
        if let extraOperator {
            operators.append(extraOperator)
            tensors.append(Tensor(name: "joined", shape: [1, 4, 4, extraChannels], type: .float32, constant: nil))
            tensors.append(Tensor(name: "after", shape: [1, 4, 4, extraChannels], type: .float32, constant: nil))
            operators.append(Operator(kind: .relu, inputs: [4], outputs: [5]))
            outputs = [5]
        }
        return Model(file: "handmade.tflite", tensors: tensors, operators: operators, inputs: [0], outputs: outputs)
    }

    func testAValidHandmadeGraphRuns() throws {
        let runtime = try Runtime(model: try CompiledModel(graph: convolutionGraph(strideWidth: 1)))
        let outputs = try runtime.run([Float](repeating: 1, count: 48))
        // Centre pixel: 27 taps of 1 * 0.1 plus the bias, then RELU.
        let centre = (1 * 4 + 1) * 2
        XCTAssertEqual(outputs[0][centre], 2.7, accuracy: 1e-5)
        XCTAssertEqual(outputs[0][centre + 1], 3.7, accuracy: 1e-5)
    }

    func testXNNPACKRefusalNamesOperatorAndStatus() throws {
        let model = try CompiledModel(graph: convolutionGraph(strideWidth: 0))
        XCTAssertThrowsError(try Runtime(model: model)) { error in
            guard let error = error as? InferenceError else { return XCTFail("\(error)") }
            XCTAssertEqual(error.file, "handmade.tflite")
            XCTAssertEqual(error.operatorIndex, 0)
            XCTAssertTrue(error.problem.contains("CONV_2D"), error.problem)
            XCTAssertTrue(error.problem.contains("invalid parameter"), error.problem)
        }
    }

    func testAConcatenationRunsInXNNPACKUpToFiveInputsAndOnTheHostBeyond() throws {
        // XNNPACK's concatenate nodes take two to five inputs: one segment; six split the graph around a host step.
        for (copies, steps) in [(2, 1), (6, 3)] {
            let concatenation = Operator(kind: .concatenation(axis: 3, activation: .none),
                                         inputs: Array(repeating: 3, count: copies), outputs: [4])
            let graph = convolutionGraph(strideWidth: 1, extraOperator: concatenation, extraChannels: 2 * copies)
            let runtime = try Runtime(model: try CompiledModel(graph: graph))
            XCTAssertEqual(runtime.stepNames.count, steps, "\(runtime.stepNames)")
            let output = try runtime.run([Float](repeating: 1, count: 48))[0]
            // The centre pixel's two convolution channels, once per copy, after RELU.
            let centre = (1 * 4 + 1) * 2 * copies
            for (offset, value) in output[centre..<centre + 2 * copies].enumerated() {
                XCTAssertEqual(value, offset.isMultiple(of: 2) ? 2.7 : 3.7, accuracy: 1e-5)
            }
        }
    }

    func testWrongInputSizeAndThreadCountAreErrors() throws {
        let model = try CompiledModel(graph: convolutionGraph(strideWidth: 1))
        XCTAssertThrowsError(try Runtime(model: model, threads: 0))
        XCTAssertThrowsError(try Runtime(model: model).run([1, 2, 3])) { error in
            XCTAssertTrue(String(describing: error).contains("expects 48"), "\(error)")
        }
    }
}
