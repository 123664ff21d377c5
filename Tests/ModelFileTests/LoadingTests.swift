@testable import ModelFile
import XCTest

/// The face models load, and loading leaves a graph the engine can run:
/// weights folded to fp32, no weight-only operators left, every tensor either
/// computed or constant.
final class LoadingTests: XCTestCase {
    func testEveryModelLoadsIntoARunnableGraph() throws {
        for name in allModelNames {
            let model = try ModelLoader.load(path: modelPath(name))
            XCTAssertEqual(model.inputs.count, 1, name)
            XCTAssertEqual(model.outputs.count, name.contains("attention") ? 7 : 2, name)
            XCTAssertFalse(model.operators.isEmpty, name)
            var available = Set(model.inputs)
            for op in model.operators {
                for input in op.inputs where input >= 0 {
                    let tensor = model.tensors[input]
                    XCTAssertTrue(available.contains(input) || tensor.constant != nil,
                                  "\(name): \(op.kind.name) reads \(tensor.name) before it exists")
                    if let values = tensor.constant?.floats {
                        XCTAssertEqual(values.count, tensor.elementCount, "\(name): \(tensor.name)")
                    }
                }
                available.formUnion(op.outputs)
            }
            for output in model.outputs { XCTAssertTrue(available.contains(output), name) }
        }
    }

    func testInputAndOutputShapesAreMediaPipes() throws {
        let expected: [String: ([Int], [[Int]])] = [
            "face_detection_short_range.tflite": ([1, 128, 128, 3], [[1, 896, 16], [1, 896, 1]]),
            "face_detection_full_range_sparse.tflite": ([1, 192, 192, 3], [[1, 2304, 16], [1, 2304, 1]]),
            "face_landmark.tflite": ([1, 192, 192, 3], [[1, 1, 1, 1404], [1, 1, 1, 1]]),
            // Listed as the file lists them (not in tensor order): mesh, lips, eyes, irises, face flag.
            "face_landmark_with_attention.tflite": ([1, 192, 192, 3], [[1, 1, 1, 1404], [1, 1, 1, 160], [1, 1, 1, 142], [1, 1, 1, 142], [1, 1, 1, 10], [1, 1, 1, 10], [1, 1, 1, 1]]),
        ]
        for (name, (input, outputs)) in expected {
            let model = try ModelLoader.load(path: modelPath(name))
            XCTAssertEqual(model.tensors[model.inputs[0]].shape, input, name)
            XCTAssertEqual(model.outputs.map { model.tensors[$0].shape }, outputs, name)
        }
    }

    func testSparseWeightsAreDensifiedAndCarryRealValues() throws {
        // The full-range detector stores most convolution filters sparse; after
        // loading, every filter is dense, and sparse encodings leave zeros in place.
        let model = try ModelLoader.load(path: modelPath("face_detection_full_range_sparse.tflite"))
        var zeroShares: [Double] = []
        for op in model.operators {
            guard case .conv2D = op.kind, let filter = model.tensors[op.inputs[1]].constant?.floats else { continue }
            XCTAssertEqual(filter.count, model.tensors[op.inputs[1]].elementCount)
            zeroShares.append(Double(filter.filter { $0 == 0 }.count) / Double(filter.count))
        }
        XCTAssertFalse(zeroShares.isEmpty)
        XCTAssertTrue(zeroShares.contains { $0 > 0.3 }, "no filter looks like a densified sparse one: \(zeroShares)")
        XCTAssertTrue(zeroShares.allSatisfy { $0 < 1 }, "a filter is all zeros")
    }

    func testMissingFileSaysHowToGetTheModels() {
        XCTAssertThrowsError(try ModelLoader.load(path: modelPath("no_such_model.tflite"))) { error in
            let message = String(describing: error)
            XCTAssertTrue(message.contains("no_such_model.tflite"), message)
            XCTAssertTrue(message.contains("make models"), message)
        }
    }
}
