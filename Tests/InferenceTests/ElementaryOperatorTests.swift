import Inference
import ModelFile
import XCTest

/// The blendshape model's operators in shapes and settings the model itself
/// does not use (scattered reduction axes, negative strides, shrunk axes,
/// broadcasting, fused activations), each on a one-operator graph against
/// values worked out by hand.
final class ElementaryOperatorTests: XCTestCase {
    /// Runs one operator on `input` (values 0, 1, 2, … unless given); tensor 0
    /// is the input, tensor 1 the output, and `constants` follow from index 2.
    private func run(_ kind: OperatorKind, input shape: [Int], values: [Float]? = nil, output outputShape: [Int],
                     constants: [(shape: [Int], values: ConstantValues)] = []) throws -> [Float] {
        var tensors = [Tensor(name: "input", shape: shape, type: .float32, constant: nil),
                       Tensor(name: "output", shape: outputShape, type: .float32, constant: nil)]
        for (index, constant) in constants.enumerated() {
            tensors.append(Tensor(name: "constant \(index)", shape: constant.shape, type: .float32, constant: constant.values))
        }
        let op = Operator(kind: kind, inputs: [0] + constants.indices.map { $0 + 2 }, outputs: [1])
        let model = try CompiledModel(graph: Model(file: "probe.tflite", tensors: tensors, operators: [op], inputs: [0], outputs: [1]))
        return try Runtime(model: model).run(values ?? (0..<shape.reduce(1, *)).map(Float.init))[0]
    }

    private func axes(_ values: [Int32]) -> (shape: [Int], values: ConstantValues) { ([values.count], .int32(values)) }

    func testReductionsOverAnyAxes() throws {
        // [2,3,4] holding 0…23: element (a,b,c) = 12a + 4b + c.
        XCTAssertEqual(try run(.mean(ReductionOptions(axes: [0, 2], keepDims: false)), input: [2, 3, 4], output: [3],
                               constants: [axes([0, 2])]), [7.5, 11.5, 15.5])
        XCTAssertEqual(try run(.sum(ReductionOptions(axes: [-1], keepDims: true)), input: [2, 3, 4], output: [2, 3, 1],
                               constants: [axes([-1])]), [6, 22, 38, 54, 70, 86])
        XCTAssertEqual(try run(.sum(ReductionOptions(axes: [1], keepDims: true)), input: [2, 3, 4], output: [2, 1, 4],
                               constants: [axes([1])]), [12, 15, 18, 21, 48, 51, 54, 57])
        XCTAssertEqual(try run(.mean(ReductionOptions(axes: [0, 1, 2], keepDims: false)), input: [2, 3, 4], output: [],
                               constants: [axes([0, 1, 2])]), [11.5])
    }

    func testTransposeReordersDimensions() throws {
        // [2,3] -> [3,2]; and [2,3,4] by (2,0,1): output (c,a,b) = input (a,b,c).
        XCTAssertEqual(try run(.transpose(permutation: [1, 0]), input: [2, 3], output: [3, 2], constants: [axes([1, 0])]),
                       [0, 3, 1, 4, 2, 5])
        let permuted = try run(.transpose(permutation: [2, 0, 1]), input: [2, 3, 4], output: [4, 2, 3], constants: [axes([2, 0, 1])])
        XCTAssertEqual(permuted[(1 * 2 + 1) * 3 + 2], Float(12 * 1 + 4 * 2 + 1))
        XCTAssertEqual(permuted.sorted(), (0..<24).map(Float.init))
    }

    func testStridedSlicesWithNegativeStridesMasksAndShrinking() throws {
        func slice(_ begin: [Int32], _ end: [Int32], _ strides: [Int32], beginMask: Int = 0, endMask: Int = 0, shrink: Int = 0,
                   output: [Int]) throws -> [Float] {
            try run(.stridedSlice(StridedSliceOptions(beginMask: beginMask, endMask: endMask, ellipsisMask: 0, newAxisMask: 0, shrinkAxisMask: shrink)),
                    input: [4, 5], output: output, constants: [axes(begin), axes(end), axes(strides)])
        }
        // [4,5] holding 0…19: element (r,c) = 5r + c.
        XCTAssertEqual(try slice([3, -1], [0, 0], [-1, -2], output: [3, 2]), [19, 17, 14, 12, 9, 7])
        XCTAssertEqual(try slice([1, 0], [2, 5], [1, 1], shrink: 1, output: [5]), [5, 6, 7, 8, 9])
        XCTAssertEqual(try slice([0, 9], [1, 9], [1, -1], beginMask: 2, endMask: 2, output: [1, 5]), [4, 3, 2, 1, 0])
        XCTAssertEqual(try slice([1, 1], [100, -1], [2, 2], output: [2, 2]), [6, 8, 16, 18])
    }

    func testBinaryOperatorsBroadcastAndClamp() throws {
        let row: (shape: [Int], values: ConstantValues) = ([3], .float([1, 2, 4]))
        let input: [Float] = [1, 2, 3, -4, 5, 6]
        XCTAssertEqual(try run(.sub(.none), input: [2, 3], values: input, output: [2, 3], constants: [row]), [0, 0, -1, -5, 3, 2])
        XCTAssertEqual(try run(.sub(.relu), input: [2, 3], values: input, output: [2, 3], constants: [row]), [0, 0, 0, 0, 3, 2])
        XCTAssertEqual(try run(.div(.none), input: [2, 3], values: input, output: [2, 3], constants: [row]), [1, 1, 0.75, -4, 2.5, 1.5])
        XCTAssertEqual(try run(.squaredDifference, input: [2, 3], values: input, output: [2, 3], constants: [row]), [0, 0, 1, 25, 9, 4])
        XCTAssertEqual(try run(.mul(.none), input: [2, 3], values: input, output: [2, 3], constants: [([], .float([0.5]))]),
                       [0.5, 1, 1.5, -2, 2.5, 3])
    }

    func testUnaryOperators() throws {
        let input: [Float] = [0.25, 1, 4, 16]
        XCTAssertEqual(try run(.neg, input: [4], values: input, output: [4]), [-0.25, -1, -4, -16])
        XCTAssertEqual(try run(.sqrt, input: [4], values: input, output: [4]), [0.5, 1, 2, 4])
        XCTAssertEqual(try run(.rsqrt, input: [4], values: input, output: [4]), [2, 1, 0.5, 0.25])
        let sigmoid = try run(.logistic, input: [3], values: [-20, 0, 20], output: [3])
        XCTAssertEqual(sigmoid[0], 1 / (1 + exp(20)), accuracy: 1e-7)
        XCTAssertEqual(sigmoid[1], 0.5, accuracy: 1e-7)
        XCTAssertEqual(sigmoid[2], 1, accuracy: 1e-6)
    }

    func testImpossibleShapesAreErrorsNamingTheOperator() {
        XCTAssertThrowsError(try run(.transpose(permutation: [0, 0]), input: [2, 3], output: [2, 3], constants: [axes([0, 0])])) { error in
            XCTAssertTrue("\(error)".contains("probe.tflite: operator 0: TRANSPOSE"), "\(error)")
        }
        XCTAssertThrowsError(try run(.mean(ReductionOptions(axes: [3], keepDims: true)), input: [2, 3], output: [2, 1], constants: [axes([3])])) { error in
            XCTAssertTrue("\(error)".contains("MEAN axis 3"), "\(error)")
        }
        XCTAssertThrowsError(try run(.stridedSlice(StridedSliceOptions(beginMask: 0, endMask: 0, ellipsisMask: 0, newAxisMask: 0, shrinkAxisMask: 0)),
                                     input: [4, 5], output: [4, 5], constants: [axes([0, 0]), axes([2, 5]), axes([1, 1])])) { error in
            XCTAssertTrue("\(error)".contains("STRIDED_SLICE of [4, 5]"), "\(error)")
        }
    }
}
