import Inference
import ModelFile
import XCTest

/// A per-channel PReLU gives x where x >= 0 and slope[c] * x below, whichever
/// way the runtime lays out the slopes for XNNPACK.
final class PReLUTests: XCTestCase {
    private func prelu(input shape: [Int], slopes: [Float], slopeShape: [Int], values: [Float]) throws -> [Float] {
        let graph = Model(file: "probe.tflite", tensors: [
            Tensor(name: "input", shape: shape, type: .float32, constant: nil),
            Tensor(name: "slopes", shape: slopeShape, type: .float32, constant: .float(slopes)),
            Tensor(name: "output", shape: shape, type: .float32, constant: nil),
        ], operators: [Operator(kind: .prelu, inputs: [0, 1], outputs: [2])], inputs: [0], outputs: [2])
        return try Runtime(model: try CompiledModel(graph: graph)).run(values)[0]
    }

    func testEveryPixelUsesItsChannelsSlope() throws {
        // [1, 2, 3, 2]: pixel p holds (-(p + 1), p + 1); channel 0's slope is 0.5, channel 1's is -2.
        let values = (0..<6).flatMap { pixel in [-Float(pixel + 1), Float(pixel + 1)] }
        let expected = (0..<6).flatMap { pixel in [-0.5 * Float(pixel + 1), Float(pixel + 1)] }
        for slopeShape in [[2], [1, 1, 2], [1, 1, 1, 2]] {
            XCTAssertEqual(try prelu(input: [1, 2, 3, 2], slopes: [0.5, -2], slopeShape: slopeShape, values: values), expected, "slopes shaped \(slopeShape)")
        }
        XCTAssertEqual(try prelu(input: [1, 2, 1, 2], slopes: [0.5, -2], slopeShape: [2], values: Array(values.prefix(4))),
                       Array(expected.prefix(4)), "an image one pixel wide")
    }
}
