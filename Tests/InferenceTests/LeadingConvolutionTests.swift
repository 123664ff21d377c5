import Inference
import ModelFile
import SeededRandom
import XCTest

/// A model's first convolution computes only the output rows a letterbox's
/// uniform border does not decide, keeping the rest from the last whole run
/// on the same border, and gives the outputs of a whole run to the bit.
final class LeadingConvolutionTests: XCTestCase {
    /// input [1, 128, 128, 3] -> CONV_2D (5x5, stride 2, SAME; BlazeFace's first layer) -> [1, 64, 64, 24]
    /// -> a residual block as BlazeFace's (DEPTHWISE_CONV_2D 3x3, ADD of its input, RELU) -> CONV_2D (1x1)
    /// -> [1, 64, 64, 8] -> MAX_POOL_2D (2x2, stride 2) -> [1, 32, 32, 8]. The ReLU is the first
    /// convolution's fused activation, or with `separateReLU` a RELU operator of its own after it, as in
    /// BlazeFace's file; with `convolvedIsOutput` the first convolution's own output is a model output too,
    /// with `depthwiseIsOutput` the depthwise convolution's.
    private func model(stride: Int = 2, separateReLU: Bool = false, convolvedIsOutput: Bool = false, depthwiseIsOutput: Bool = false,
                       letterboxed: Bool = true) throws -> CompiledModel {
        func options(stride: Int, activation: Activation) -> ConvolutionOptions {
            ConvolutionOptions(padding: .same, strideWidth: stride, strideHeight: stride, dilationWidth: 1, dilationHeight: 1,
                               activation: activation)
        }
        func constant(_ name: String, _ shape: [Int], seed: UInt64) -> Tensor {
            Tensor(name: name, shape: shape, type: .float32,
                   constant: .float(SplitMix64.floats(count: shape.reduce(1, *), seed: seed, lower: -1, upper: 1)))
        }
        func features(_ name: String, channels: Int = 24) -> Tensor {
            Tensor(name: name, shape: [1, 64, 64, channels], type: .float32, constant: nil)
        }
        var tensors = [
            Tensor(name: "input", shape: [1, 128, 128, 3], type: .float32, constant: nil),
            constant("filter", [24, 5, 5, 3], seed: 2),
            constant("bias", [24], seed: 3),
            constant("filter 2", [8, 1, 1, 24], seed: 4),
            Tensor(name: "output", shape: [1, 32, 32, 8], type: .float32, constant: nil),
            features("convolved"),
            constant("depthwise filter", [1, 3, 3, 24], seed: 5),
            features("depthwise"),
            features("sum"),
            features("block"),
            features("projected", channels: 8),
        ]
        var operators = [Operator(kind: .conv2D(options(stride: stride, activation: separateReLU ? .none : .relu)),
                                  inputs: [0, 1, 2], outputs: [5])]
        var activated = 5
        if separateReLU {
            tensors.append(features("features"))
            activated = tensors.count - 1
            operators.append(Operator(kind: .relu, inputs: [5], outputs: [activated]))
        }
        operators += [
            Operator(kind: .depthwiseConv2D(options(stride: 1, activation: .none), depthMultiplier: 1), inputs: [activated, 6, -1],
                     outputs: [7]),
            Operator(kind: .add(.none), inputs: [activated, 7], outputs: [8]),
            Operator(kind: .relu, inputs: [8], outputs: [9]),
            Operator(kind: .conv2D(options(stride: 1, activation: .none)), inputs: [9, 3, -1], outputs: [10]),
            Operator(kind: .maxPool2D(PoolOptions(padding: .valid, strideWidth: 2, strideHeight: 2, filterWidth: 2, filterHeight: 2,
                                                  activation: .none)), inputs: [10], outputs: [4]),
        ]
        let graph = Model(file: "probe.tflite", tensors: tensors, operators: operators, inputs: [0],
                          outputs: [4] + (convolvedIsOutput ? [5] : []) + (depthwiseIsOutput ? [7] : []))
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
            XCTAssertEqual(runtime.stageBandRuns, 4, "the block after the convolution runs over the band with it")
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
                XCTAssertEqual(banded.stepNames[0], "leading CONV_2D (operator 0), then operators 1–5 over its rows", "\(banded.stepNames)")
            } else {
                XCTAssertEqual(banded.stepNames[0], "leading CONV_2D (operator 0) with RELU (operator 1), then operators 2–5 over its rows",
                               "\(banded.stepNames)")
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
            XCTAssertEqual(banded.stageBandRuns, 2)
        }
    }

    /// The operators after the convolution run over the band only as far as one
    /// tensor leaves them: here the depthwise convolution's output is a model
    /// output, read after the residual block too, so the stage is that convolution
    /// alone, and the rest runs in the subgraph on its whole output.
    func testAStageEndsWhereOnlyOneTensorLeavesIt() throws {
        let banded = try Runtime(model: try model(depthwiseIsOutput: true), threads: 2)
        let plain = try Runtime(model: try model(depthwiseIsOutput: true, letterboxed: false), threads: 2)
        XCTAssertEqual(banded.stepNames[0], "leading CONV_2D (operator 0), then operator 1 over its rows", "\(banded.stepNames)")
        for seed in 0..<3 as Range<UInt64> {
            let input = frame(content: 28..<100, border: -1, seed: 70 + seed)
            XCTAssertEqual(try banded.run(input), try plain.run(input), "frame \(seed)")
        }
        XCTAssertEqual(banded.stageBandRuns, 2)
    }

    /// The stage's runtime keeps its inner tensors in its thread's shared
    /// workspace. A larger model built after it (then set up again, as the
    /// runtimes of a thread are) grows that workspace and runs between its
    /// frames, overwriting it: the stage still gives a whole run's outputs,
    /// as the border rows it keeps are outside the workspace.
    func testTheStageSharesItsThreadsWorkspace() throws {
        let workspace = try Workspace(), pool = try ThreadPool(threads: 2)
        let banded = try Runtime(model: try model(), threadPool: pool, workspace: workspace)
        let mesh = try Runtime(model: try CompiledModel(path: modelsDirectory.appendingPathComponent("face_landmark.tflite").path),
                               threadPool: pool, workspace: workspace)
        try banded.rebind()
        for seed in 0..<4 as Range<UInt64> {
            let input = frame(content: 28..<100, border: -1, seed: 80 + seed)
            XCTAssertEqual(try banded.run(input)[0], try whole(input, threads: 2), "frame \(seed)")
            _ = try mesh.run(SplitMix64.floats(count: mesh.input().count, seed: 90 + seed, lower: 0, upper: 1))
        }
        XCTAssertEqual(banded.stageBandRuns, 3)
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
