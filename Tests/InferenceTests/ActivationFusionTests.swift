import Inference
import ModelFile
import XCTest

/// A RELU that alone reads an elementwise operator's output runs as that
/// operator's activation, in one pass; one whose input is read elsewhere too
/// stays, and every output keeps its values.
final class ActivationFusionTests: XCTestCase {
    private let addend = Tensor(name: "addend", shape: [4], type: .float32, constant: .float([1, -1, 2, -2]))

    private func value(_ name: String) -> Tensor {
        Tensor(name: name, shape: [1, 4], type: .float32, constant: nil)
    }

    func testAReluThatAloneReadsAnAddBecomesItsActivation() throws {
        // 0 input, 1 addend, 2 sum, 3 rectified sum.
        let graph = Model(file: "probe.tflite", tensors: [value("input"), addend, value("sum"), value("rectified")],
                          operators: [Operator(kind: .add(.none), inputs: [0, 1], outputs: [2]),
                                      Operator(kind: .relu, inputs: [2], outputs: [3])],
                          inputs: [0], outputs: [3])
        let model = try CompiledModel(graph: graph)
        XCTAssertEqual(model.graph.operators.map(\.kind), [.add(.relu)])
        XCTAssertEqual(model.graph.operators.first?.outputs, [3], "the RELU's output tensor is kept")
        XCTAssertEqual(try Runtime(model: model).run([0.5, 0.5, -3, 3]), [[1.5, 0, 0, 1]])
    }

    func testAReluWhoseInputIsAlsoReadElsewhereStays() throws {
        // 0 input, 1 addend, 2 sum (also a model output), 3 rectified sum.
        let graph = Model(file: "probe.tflite", tensors: [value("input"), addend, value("sum"), value("rectified")],
                          operators: [Operator(kind: .add(.none), inputs: [0, 1], outputs: [2]),
                                      Operator(kind: .relu, inputs: [2], outputs: [3])],
                          inputs: [0], outputs: [2, 3])
        let model = try CompiledModel(graph: graph)
        XCTAssertEqual(model.graph.operators.map(\.kind), [.add(.none), .relu])
        XCTAssertEqual(try Runtime(model: model).run([0.5, 0.5, -3, 3]), [[1.5, -0.5, -1, 1], [1.5, 0, 0, 1]])
    }

    func testTheShortRangeDetectorsResidualReluRunInsideItsAdds() throws {
        let path = modelsDirectory.appendingPathComponent("face_detection_short_range.tflite").path
        let file = try ModelLoader.load(path: path)
        let readers = file.operators.flatMap(\.inputs).reduce(into: [Int: Int]()) { $0[$1, default: 0] += 1 }
        let adds = Set(file.operators.filter { $0.kind == .add(.none) }.flatMap(\.outputs))
        let foldable = file.operators.filter { $0.kind == .relu && adds.contains($0.inputs[0]) && readers[$0.inputs[0]] == 1 }
        XCTAssertFalse(foldable.isEmpty, "the detector's residual blocks end in ADD then RELU")

        let compiled = try CompiledModel(path: path)
        XCTAssertEqual(compiled.graph.operators.count, file.operators.count - foldable.count)
        XCTAssertEqual(compiled.graph.operators.filter { $0.kind == .add(.relu) }.count, foldable.count)
    }
}
