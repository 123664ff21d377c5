import Inference
import ModelFile
import SeededRandom
import XCTest

/// Convolutions of every width XNNPACK picks a different kernel for against a
/// direct computation: at most 16 output channels run 16 wide; more run 32
/// wide, or 16 wide where that pads fewer (33 to 48, 65 to 80); with a
/// remainder or without.
final class ConvolutionWidthTests: XCTestCase {
    /// input [1, 9, 11, 5] -> CONV_2D (SAME, stride 1, bias, no activation) -> [1, 9, 11, outputChannels]
    private func check(outputChannels: Int, kernel: Int) throws {
        let (height, width, inputChannels) = (9, 11, 5)
        let filter = SplitMix64.floats(count: outputChannels * kernel * kernel * inputChannels, seed: 2, lower: -1, upper: 1)
        let bias = SplitMix64.floats(count: outputChannels, seed: 3, lower: -1, upper: 1)
        let input = SplitMix64.floats(count: height * width * inputChannels, seed: 4, lower: -1, upper: 1)
        let options = ConvolutionOptions(padding: .same, strideWidth: 1, strideHeight: 1, dilationWidth: 1, dilationHeight: 1, activation: .none)
        let graph = Model(file: "probe.tflite", tensors: [
            Tensor(name: "input", shape: [1, height, width, inputChannels], type: .float32, constant: nil),
            Tensor(name: "filter", shape: [outputChannels, kernel, kernel, inputChannels], type: .float32, constant: .float(filter)),
            Tensor(name: "bias", shape: [outputChannels], type: .float32, constant: .float(bias)),
            Tensor(name: "output", shape: [1, height, width, outputChannels], type: .float32, constant: nil),
        ], operators: [Operator(kind: .conv2D(options), inputs: [0, 1, 2], outputs: [3])], inputs: [0], outputs: [3])
        let ours = try Runtime(model: try CompiledModel(graph: graph)).run(input)[0]

        let reach = kernel / 2
        var worst: Float = 0
        for y in 0..<height {
            for x in 0..<width {
                for o in 0..<outputChannels {
                    var sum = bias[o]
                    for ky in 0..<kernel {
                        for kx in 0..<kernel {
                            let (iy, ix) = (y + ky - reach, x + kx - reach)
                            guard iy >= 0, iy < height, ix >= 0, ix < width else { continue }
                            for i in 0..<inputChannels {
                                sum += filter[((o * kernel + ky) * kernel + kx) * inputChannels + i] * input[(iy * width + ix) * inputChannels + i]
                            }
                        }
                    }
                    worst = max(worst, abs(ours[(y * width + x) * outputChannels + o] - sum))
                }
            }
        }
        XCTAssertLessThan(worst, 1e-4, "\(outputChannels) output channels, \(kernel)x\(kernel) kernel")
    }

    func testEveryWidthMatchesADirectComputation() throws {
        for outputChannels in [1, 8, 10, 16, 17, 32, 36, 48, 56, 64, 72, 80, 88] {
            try check(outputChannels: outputChannels, kernel: 1)
            try check(outputChannels: outputChannels, kernel: 3)
        }
    }
}
