import Inference
import ModelFile
import SeededRandom
import XCTest

/// A model's first convolution computes only the output rows a letterbox's
/// uniform border does not decide, keeping the rest from the last whole run
/// on the same border, and gives the outputs of a whole run to the bit.
final class LeadingConvolutionTests: XCTestCase {
    /// input [1, 128, 128, 3] -> CONV_2D (5x5, stride 2, SAME; BlazeFace's first layer) -> [1, 64, 64, 24]
    /// -> CONV_2D (1x1) -> [1, 64, 64, 8]. The ReLU is the first convolution's fused activation, or
    /// with `separateReLU` a RELU operator of its own between the two, as in BlazeFace's file; with
    /// `convolvedIsOutput` the first convolution's own output is a model output too.
    private func model(stride: Int = 2, separateReLU: Bool = false, convolvedIsOutput: Bool = false,
                       letterboxed: Bool = true) throws -> CompiledModel {
        let first = ConvolutionOptions(padding: .same, strideWidth: stride, strideHeight: stride, dilationWidth: 1, dilationHeight: 1,
                                       activation: separateReLU ? .none : .relu)
        let second = ConvolutionOptions(padding: .same, strideWidth: 1, strideHeight: 1, dilationWidth: 1, dilationHeight: 1, activation: .none)
        var tensors = [
            Tensor(name: "input", shape: [1, 128, 128, 3], type: .float32, constant: nil),
            Tensor(name: "filter", shape: [24, 5, 5, 3], type: .float32,
                   constant: .float(SplitMix64.floats(count: 24 * 75, seed: 2, lower: -1, upper: 1))),
            Tensor(name: "bias", shape: [24], type: .float32, constant: .float(SplitMix64.floats(count: 24, seed: 3, lower: -1, upper: 1))),
            Tensor(name: "filter 2", shape: [8, 1, 1, 24], type: .float32,
                   constant: .float(SplitMix64.floats(count: 8 * 24, seed: 4, lower: -1, upper: 1))),
            Tensor(name: "output", shape: [1, 64, 64, 8], type: .float32, constant: nil),
            Tensor(name: "convolved", shape: [1, 64, 64, 24], type: .float32, constant: nil),
        ]
        var operators = [Operator(kind: .conv2D(first), inputs: [0, 1, 2], outputs: [5])]
        var features = 5
        if separateReLU {
            tensors.append(Tensor(name: "features", shape: [1, 64, 64, 24], type: .float32, constant: nil))
            operators.append(Operator(kind: .relu, inputs: [5], outputs: [6]))
            features = 6
        }
        operators.append(Operator(kind: .conv2D(second), inputs: [features, 3, -1], outputs: [4]))
        let graph = Model(file: "probe.tflite", tensors: tensors, operators: operators, inputs: [0],
                          outputs: convolvedIsOutput ? [4, 5] : [4])
        return try CompiledModel(graph: graph, letterboxedInput: letterboxed)
    }

    /// A 128x128 RGB tensor whose rows outside `content` are all `border`.
    private func frame(content: Range<Int>, border: Float, seed: UInt64) -> [Float] {
        let row = 128 * 3
        var values = SplitMix64.floats(count: 128 * row, seed: seed, lower: -1, upper: 1)
        for y in 0..<128 where !content.contains(y) {
            for index in (y * row)..<((y + 1) * row) { values[index] = border }
        }
        return values
    }

    /// What a runtime that has seen nothing else gives: a whole run.
    private func whole(_ input: [Float], threads: Int) throws -> [Float] {
        let runtime = try Runtime(model: try model(), threads: threads)
        let output = try runtime.run(input)[0]
        XCTAssertEqual(runtime.bandRuns, 0)
        return output
    }

    func testBandsGiveTheWholeRunsOutputsAndABorderChangeRunsWhole() throws {
        for threads in [1, 2] {
            let runtime = try Runtime(model: try model(), threads: threads)
            let widescreen = (0..<3).map { frame(content: 28..<100, border: -1, seed: 10 + UInt64($0)) }
            for (index, input) in widescreen.enumerated() {
                XCTAssertEqual(try runtime.run(input)[0], try whole(input, threads: threads), "16:9 frame \(index), \(threads) threads")
            }
            XCTAssertEqual(runtime.bandRuns, 2, "the frames after the first reuse its border rows")

            // Another border: other rows, another value.
            let portrait = (0..<2).map { frame(content: 16..<112, border: 0.25, seed: 20 + UInt64($0)) }
            for (index, input) in portrait.enumerated() {
                XCTAssertEqual(try runtime.run(input)[0], try whole(input, threads: threads), "4:3 frame \(index), \(threads) threads")
            }
            XCTAssertEqual(runtime.bandRuns, 3, "a new border runs whole once")

            // The same rows with another value is another border.
            let grey = frame(content: 16..<112, border: 0.5, seed: 30)
            XCTAssertEqual(try runtime.run(grey)[0], try whole(grey, threads: threads))
            XCTAssertEqual(runtime.bandRuns, 3)

            // A frame without a border, then the 16:9 border again.
            let full = SplitMix64.floats(count: 128 * 128 * 3, seed: 40, lower: -1, upper: 1)
            XCTAssertEqual(try runtime.run(full)[0], try whole(full, threads: threads))
            XCTAssertEqual(try runtime.run(widescreen[0])[0], try whole(widescreen[0], threads: threads))
            XCTAssertEqual(try runtime.run(widescreen[1])[0], try whole(widescreen[1], threads: threads))
            XCTAssertEqual(runtime.bandRuns, 4)
        }
    }

    /// A RELU that alone reads the leading convolution runs as its clamp, and the
    /// outputs are those of the subgraph, where XNNPACK fuses the two itself.
    func testTheReLUAfterTheLeadingConvolutionIsItsClamp() throws {
        for convolvedIsOutput in [false, true] {
            let banded = try Runtime(model: try model(separateReLU: true, convolvedIsOutput: convolvedIsOutput), threads: 2)
            let plain = try Runtime(model: try model(separateReLU: true, convolvedIsOutput: convolvedIsOutput, letterboxed: false),
                                    threads: 2)
            if convolvedIsOutput {
                XCTAssertEqual(banded.stepNames[0], "leading CONV_2D (operator 0)", "\(banded.stepNames)")
            } else {
                XCTAssertEqual(banded.stepNames[0], "leading CONV_2D (operator 0) with RELU (operator 1)", "\(banded.stepNames)")
            }
            for seed in 0..<3 as Range<UInt64> {
                let input = frame(content: 28..<100, border: -1, seed: 60 + seed)
                let outputs = try banded.run(input)
                XCTAssertEqual(outputs, try plain.run(input), "frame \(seed), convolution's output read twice: \(convolvedIsOutput)")
                XCTAssertTrue(outputs[0].contains { $0 != 0 } && outputs[0].contains { $0 < 0 }, "the probe's outputs say nothing")
                if convolvedIsOutput {
                    XCTAssertTrue(outputs[1].contains { $0 < 0 }, "the convolution's own output lost its negative values")
                }
            }
            XCTAssertEqual(banded.bandRuns, 2)
        }
    }

    /// XNNPACK's refusal of the convolution it runs on its own names the operator and the status.
    func testARefusedLeadingConvolutionIsAnErrorNamingIt() throws {
        XCTAssertThrowsError(try Runtime(model: try model(stride: 0))) { error in
            guard let error = error as? InferenceError else { return XCTFail("\(error)") }
            XCTAssertEqual(error.file, "probe.tflite")
            XCTAssertEqual(error.operatorIndex, 0)
            XCTAssertTrue(error.problem.contains("CONV_2D") && error.problem.contains("invalid parameter"), error.problem)
        }
    }

    /// BlazeFace itself, letterboxed as the detector's input is: every output
    /// of a run that kept the border rows equals a whole run's.
    func testShortRangeDetectorOnLetterboxedFrames() throws {
        let model = try CompiledModel(path: modelsDirectory.appendingPathComponent("face_detection_short_range.tflite").path,
                                      letterboxedInput: true)
        let runtime = try Runtime(model: model, threads: 2)
        for seed in 0..<3 as Range<UInt64> {
            let input = frame(content: 28..<100, border: -1, seed: 50 + seed)
            let reference = try Runtime(model: model).run(input)
            XCTAssertEqual(try runtime.run(input), reference, "frame \(seed)")
        }
        XCTAssertEqual(runtime.bandRuns, 2)
        XCTAssertTrue(runtime.stepNames[0].hasPrefix("leading CONV_2D (operator 0) with RELU"), "\(runtime.stepNames)")

        // A model not said to see letterboxed frames runs its first convolution in XNNPACK's subgraph,
        // with the RELU fused into it there, to the same outputs.
        let plain = try Runtime(model: try CompiledModel(path: modelsDirectory.appendingPathComponent("face_detection_short_range.tflite").path))
        for seed in 0..<2 as Range<UInt64> {
            let input = frame(content: 28..<100, border: -1, seed: 50 + seed)
            XCTAssertEqual(try plain.run(input), try Runtime(model: model).run(input), "frame \(seed)")
        }
        XCTAssertEqual(plain.bandRuns, 0)
        XCTAssertFalse(plain.stepNames.contains { $0.hasPrefix("leading") }, "\(plain.stepNames)")
    }
}
