import ModelFile

/// How the model's outputs are assembled from what XNNPACK computes.
///
/// The engine in use has no concatenation node; the face detectors only
/// concatenate at the very end (the two anchor grids' regressors and scores),
/// so a concatenation whose result is a model output is done after invoke by
/// copying its inputs side by side. Any other concatenation is unsupported.
struct OutputPlan: Sendable {
    /// For each model output, the tensors XNNPACK must produce and how to join them.
    struct Assembly: Sendable {
        /// Tensors XNNPACK writes; one for a plain output.
        var parts: [Int]
        /// Elements of each part per outer index (product of dims from the axis on).
        var partChunks: [Int]
        /// Number of outer indices (product of dims before the axis).
        var outerCount: Int
    }

    var assemblies: [Assembly]
    /// Operator indices executed after invoke instead of by XNNPACK.
    var deferredOperators: Set<Int>
    /// Every tensor XNNPACK must expose as an external output, without repeats.
    var externalOutputs: [Int]

    init(graph: Model) throws {
        var producer: [Int: Int] = [:]
        for (index, op) in graph.operators.enumerated() {
            for output in op.outputs { producer[output] = index }
        }
        var assemblies: [Assembly] = []
        var deferred = Set<Int>()
        for output in graph.outputs {
            guard let index = producer[output], case .concatenation(let rawAxis, let activation) = graph.operators[index].kind else {
                assemblies.append(Assembly(parts: [output], partChunks: [graph.tensors[output].elementCount], outerCount: 1))
                continue
            }
            let op = graph.operators[index]
            let shape = graph.tensors[output].shape
            let axis = rawAxis < 0 ? rawAxis + shape.count : rawAxis
            guard activation == .none, axis >= 0, axis < shape.count else {
                throw InferenceError(file: graph.file, operatorIndex: index, problem: "CONCATENATION on axis \(rawAxis) with activation \(activation) is not supported")
            }
            var chunks: [Int] = []
            for input in op.inputs {
                let inputShape = graph.tensors[input].shape
                guard inputShape.count == shape.count, graph.tensors[input].constant == nil else {
                    throw InferenceError(file: graph.file, operatorIndex: index, problem: "CONCATENATION input \(input) has shape \(inputShape), output has \(shape)")
                }
                chunks.append(inputShape[axis...].reduce(1, *))
            }
            let outer = shape[..<axis].reduce(1, *)
            guard chunks.reduce(0, +) * outer == graph.tensors[output].elementCount else {
                throw InferenceError(file: graph.file, operatorIndex: index, problem: "CONCATENATION inputs do not add up to output shape \(shape)")
            }
            assemblies.append(Assembly(parts: op.inputs, partChunks: chunks, outerCount: outer))
            deferred.insert(index)
        }
        for (index, op) in graph.operators.enumerated() where !deferred.contains(index) {
            if case .concatenation = op.kind {
                throw InferenceError(file: graph.file, operatorIndex: index, problem: "CONCATENATION is only supported as the last step producing a model output")
            }
        }
        var seen = Set<Int>()
        self.externalOutputs = assemblies.flatMap(\.parts).filter { seen.insert($0).inserted }
        self.assemblies = assemblies
        self.deferredOperators = deferred
    }
}
