import ModelFile

/// MEAN and SUM as XNNPACK's reduce node takes them: the reduced axes
/// normalised, checked against the input and output shapes, in order.
enum ReductionAxes {
    /// The distinct reduced axes of `op`'s input, ascending, after checking that
    /// the output holds what reducing them leaves.
    static func checked(_ op: Operator, options: ReductionOptions, name: String, graph: Model,
                        fail: (String) -> InferenceError) throws -> [Int] {
        let shape = graph.tensors[op.inputs[0]].shape
        var axes = Set<Int>()
        for axis in options.axes {
            let normalized = axis < 0 ? axis + shape.count : axis
            guard (0..<shape.count).contains(normalized) else {
                throw fail("\(name) axis \(axis) is outside an input of rank \(shape.count)")
            }
            axes.insert(normalized)
        }
        let expected = options.keepDims ? shape.indices.map { axes.contains($0) ? 1 : shape[$0] }
            : shape.indices.filter { !axes.contains($0) }.map { shape[$0] }
        let outputShape = graph.tensors[op.outputs[0]].shape
        guard outputShape == expected else {
            throw fail("\(name) over axes \(options.axes) of \(shape) gives \(expected), but the output tensor is \(outputShape)")
        }
        guard axes.allSatisfy({ shape[$0] > 0 }) else { throw fail("\(name) reduces an empty axis of \(shape)") }
        return axes.sorted()
    }
}
