import ModelFile
import XCTest

/// The Face Landmarker's blendshape model, read from its bundle: every
/// operator is known, with the options and constant operands the file gives.
final class BlendshapeModelTests: XCTestCase {
    private func model() throws -> Model {
        try TaskBundle(path: modelPath("face_landmarker.task")).model("face_blendshapes.tflite")
    }

    func testEveryOperatorIsReadWithTheCountsLiteRTReports() throws {
        let counts = Dictionary(try model().operators.map { ($0.kind.name, 1) }, uniquingKeysWith: +)
        XCTAssertEqual(counts, [
            "MUL": 26, "ADD": 24, "CONV_2D": 19, "MEAN": 18, "TRANSPOSE": 10, "NEG": 8, "RSQRT": 8, "SQUARED_DIFFERENCE": 8,
            "STRIDED_SLICE": 4, "RESHAPE": 2, "CONCATENATION": 1, "DIV": 1, "LOGISTIC": 1, "SQRT": 1, "SUB": 1, "SUM": 1,
        ])
    }

    func testOptionsAndConstantOperandsAreRead() throws {
        let model = try model()
        for op in model.operators {
            switch op.kind {
            case .mean(let options), .sum(let options):
                XCTAssertTrue(options.keepDims)
                XCTAssertEqual(options.axes.map(Int32.init), model.tensors[op.inputs[1]].constant?.integers)
            case .transpose(let permutation):
                XCTAssertEqual(permutation, [0, 1, 3, 2])
            case .sub(let activation), .div(let activation):
                XCTAssertEqual(activation, .none)
            default:
                break
            }
        }
        XCTAssertEqual(model.inputs.map { model.tensors[$0].shape }, [[1, 146, 2]])
        XCTAssertEqual(model.outputs.map { model.tensors[$0].shape }, [[52]])
    }
}
