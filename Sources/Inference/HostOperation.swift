import ModelFile

/// An operator the runtime computes itself between XNNPACK segments, with
/// everything it needs prepared and checked when the model is compiled.
///
/// XNNPACK knows nothing of MediaPipe's custom operators, has no slice with
/// strides or shrunk axes, and concatenates at most five inputs; those run
/// here. A reshape or an identity slice whose input is computed here runs here
/// too, as a copy, so a relabelling after a host operator does not cost an
/// XNNPACK segment.
enum HostOperation: Sendable {
    case copy(count: Int)
    case concatenation(ConcatenationLayout)
    case gather(Gather)
    case landmarksToTransformMatrix(LandmarksToTransformMatrix)
    case transformTensorBilinear(TransformTensorBilinear)
    case transformLandmarks(TransformLandmarks)

    /// The host operation for `op`, or nil when XNNPACK runs it.
    ///
    /// - Parameter hostInputs: whether any of the operator's inputs is computed on the host.
    init?(_ op: Operator, index: Int, graph: Model, hostInputs: Bool) throws {
        func fail(_ problem: String) -> InferenceError {
            InferenceError(file: graph.file, operatorIndex: index, problem: problem)
        }
        switch op.kind {
        case .concatenation(let axis, let activation):
            let layout = try ConcatenationLayout(op, axis: axis, activation: activation, graph: graph, fail: fail)
            if SubgraphBuilder.concatenationArity.contains(op.inputs.count) { return nil }
            self = .concatenation(layout)
        case .reshape where hostInputs:
            guard graph.tensors[op.inputs[0]].elementCount == graph.tensors[op.outputs[0]].elementCount else {
                throw fail("RESHAPE changes the element count from \(graph.tensors[op.inputs[0]].elementCount) to \(graph.tensors[op.outputs[0]].elementCount)")
            }
            self = .copy(count: graph.tensors[op.inputs[0]].elementCount)
        case .stridedSlice(let options):
            if !StridedSlice.isIdentity(op, options: options, graph: graph) {
                self = .gather(try Gather(slicing: op, options: options, graph: graph, fail: fail))
            } else if hostInputs {
                self = .copy(count: graph.tensors[op.inputs[0]].elementCount)
            } else {
                return nil
            }
        case .transpose(let permutation):
            // Checked here so that a bad permutation is named before XNNPACK sees it.
            let shape = graph.tensors[op.inputs[0]].shape
            guard permutation.sorted() == Array(shape.indices) else {
                throw fail("TRANSPOSE permutation \(permutation) does not reorder the \(shape.count) dimensions of \(shape)")
            }
            let outputShape = permutation.map { shape[$0] }
            guard graph.tensors[op.outputs[0]].shape == outputShape else {
                throw fail("TRANSPOSE of \(shape) by \(permutation) gives \(outputShape), but the output tensor is \(graph.tensors[op.outputs[0]].shape)")
            }
            return nil
        case .mean(let options):
            _ = try ReductionAxes.checked(op, options: options, name: "MEAN", graph: graph, fail: fail)
            return nil
        case .sum(let options):
            _ = try ReductionAxes.checked(op, options: options, name: "SUM", graph: graph, fail: fail)
            return nil
        case .custom(let custom):
            self = try Self.custom(custom, op: op, graph: graph, fail: fail)
        default:
            return nil
        }
    }

    /// MediaPipe's custom operators, by the name and version the file gives them.
    private static func custom(_ custom: CustomOperator, op: Operator, graph: Model,
                               fail: (String) -> InferenceError) throws -> HostOperation {
        let shapes = op.inputs.map { $0 >= 0 ? graph.tensors[$0].shape : [] }
        let outputShapes = op.outputs.map { graph.tensors[$0].shape }
        guard custom.version == 2 else {
            throw fail("\(custom.name) version \(custom.version) is not supported (only version 2, as MediaPipe's face models use)")
        }
        do {
            switch custom.name {
            case "Landmarks2TransformMatrix":
                return .landmarksToTransformMatrix(try LandmarksToTransformMatrix(options: custom.options, inputShapes: shapes, outputShapes: outputShapes))
            case "TransformTensorBilinear":
                return .transformTensorBilinear(try TransformTensorBilinear(inputShapes: shapes, outputShapes: outputShapes))
            case "TransformLandmarks":
                return .transformLandmarks(try TransformLandmarks(inputShapes: shapes, outputShapes: outputShapes))
            default:
                throw fail("custom operator \(custom.name) is not supported (supported: Landmarks2TransformMatrix, TransformTensorBilinear, TransformLandmarks)")
            }
        } catch let error as HostOperationError {
            throw fail("\(custom.name): \(error.problem)")
        }
    }

    /// Computes the outputs from the inputs; both are the operator's operands
    /// in its own order, sized as the model's shapes say.
    func run(_ inputs: [UnsafeBufferPointer<Float>], _ outputs: [UnsafeMutableBufferPointer<Float>]) {
        switch self {
        case .copy(let count):
            outputs[0].baseAddress!.update(from: inputs[0].baseAddress!, count: count)
        case .concatenation(let layout):
            layout.run(inputs, into: outputs[0])
        case .gather(let gather):
            gather.run(inputs[0], into: outputs[0])
        case .landmarksToTransformMatrix(let kernel):
            kernel.run(landmarks: inputs[0], into: outputs[0])
        case .transformTensorBilinear(let kernel):
            kernel.run(input: inputs[0], matrix: inputs[1], into: outputs[0])
        case .transformLandmarks(let kernel):
            kernel.run(landmarks: inputs[0], matrix: inputs[1], into: outputs[0])
        }
    }
}

/// Why a host kernel cannot run an operator as the model describes it.
package struct HostOperationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, in words.
    package var problem: String

    /// Creates an error.
    package init(_ problem: String) {
        self.problem = problem
    }

    package var description: String { problem }
}

/// Concatenation as a copy of each input's chunks side by side.
struct ConcatenationLayout: Sendable {
    /// Elements of each input per outer index (product of dims from the axis on).
    var chunks: [Int]
    /// Number of outer indices (product of dims before the axis).
    var outerCount: Int

    init(_ op: Operator, axis rawAxis: Int, activation: Activation, graph: Model, fail: (String) -> InferenceError) throws {
        let shape = graph.tensors[op.outputs[0]].shape
        let axis = rawAxis < 0 ? rawAxis + shape.count : rawAxis
        guard activation == .none, axis >= 0, axis < shape.count else {
            throw fail("CONCATENATION on axis \(rawAxis) with activation \(activation) is not supported")
        }
        chunks = try op.inputs.map { input in
            let inputShape = graph.tensors[input].shape
            // A constant input (a learned token, say) is fine: the runtime gives it a buffer holding its values.
            guard inputShape.count == shape.count, graph.tensors[input].constant?.integers == nil,
                  zip(inputShape, shape).enumerated().allSatisfy({ $0.offset == axis || $0.element.0 == $0.element.1 }) else {
                throw fail("CONCATENATION input \(input) has shape \(inputShape), output has \(shape)")
            }
            return inputShape[axis...].reduce(1, *)
        }
        outerCount = shape[..<axis].reduce(1, *)
        guard chunks.reduce(0, +) * outerCount == graph.tensors[op.outputs[0]].elementCount else {
            throw fail("CONCATENATION inputs do not add up to output shape \(shape)")
        }
    }

    func run(_ inputs: [UnsafeBufferPointer<Float>], into output: UnsafeMutableBufferPointer<Float>) {
        var destination = output.baseAddress!
        for outer in 0..<outerCount {
            for (input, chunk) in zip(inputs, chunks) {
                destination.update(from: input.baseAddress! + outer * chunk, count: chunk)
                destination += chunk
            }
        }
    }
}
