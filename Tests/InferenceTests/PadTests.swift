import Inference
import ModelFile
import XCTest

/// PAD with zeros against a direct computation: a pad of the channels alone
/// (BlazeFace's before each residual addition), which XNNPACK runs as rows
/// of a tensor in tiles, the first and last tile split between threads, and a
/// pad of other dimensions too, which it runs element by element.
final class PadTests: XCTestCase {
    /// Pads an `[1, height, width, channels]` tensor of distinct values by
    /// `paddings` ([before, after] per dimension) on `threads` threads and
    /// compares every output value with where it should have come from.
    private func check(height: Int, width: Int, channels: Int, paddings: [[Int]], threads: Int) throws {
        let shape = [1, height, width, channels]
        let outputShape = zip(shape, paddings).map { $0 + $1[0] + $1[1] }
        let graph = Model(file: "probe.tflite", tensors: [
            Tensor(name: "input", shape: shape, type: .float32, constant: nil),
            Tensor(name: "output", shape: outputShape, type: .float32, constant: nil),
            Tensor(name: "paddings", shape: [4, 2], type: .int32, constant: .int32(paddings.flatMap { $0.map(Int32.init) })),
        ], operators: [Operator(kind: .pad, inputs: [0, 2], outputs: [1])], inputs: [0], outputs: [1])
        let input = (0..<shape.reduce(1, *)).map { Float($0 + 1) }
        let ours = try Runtime(model: try CompiledModel(graph: graph), threads: threads).run(input)[0]

        XCTAssertEqual(ours.count, outputShape.reduce(1, *))
        var wrong = 0
        for (index, value) in ours.enumerated() {
            var rest = index
            var source = 0
            var inside = true
            for dimension in (0..<4).reversed() {
                let position = rest % outputShape[dimension] - paddings[dimension][0]
                rest /= outputShape[dimension]
                inside = inside && (0..<shape[dimension]).contains(position)
                source += position * shape[dimension + 1..<4].reduce(1, *)
            }
            if value != (inside ? input[source] : 0) { wrong += 1 }
        }
        XCTAssertEqual(wrong, 0, "\(shape) padded by \(paddings) on \(threads) threads")
    }

    func testAChannelPadMatchesADirectComputation() throws {
        // 1,600 rows of 28 floats: a dozen tiles of 16 KB, the last one short.
        for threads in [1, 2] {
            try check(height: 40, width: 40, channels: 24, paddings: [[0, 0], [0, 0], [0, 0], [0, 4]], threads: threads)
            try check(height: 40, width: 40, channels: 24, paddings: [[0, 0], [0, 0], [0, 0], [3, 5]], threads: threads)
            try check(height: 3, width: 5, channels: 7, paddings: [[0, 0], [0, 0], [0, 0], [2, 0]], threads: threads)
        }
    }

    func testAPadOfRowsAndChannelsMatchesADirectComputation() throws {
        for threads in [1, 2] {
            try check(height: 40, width: 40, channels: 24, paddings: [[0, 0], [1, 2], [0, 0], [0, 4]], threads: threads)
            try check(height: 9, width: 11, channels: 5, paddings: [[0, 0], [0, 0], [2, 1], [0, 0]], threads: threads)
        }
    }
}
