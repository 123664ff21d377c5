import ModelFile

/// The one kind of strided slice the runtime supports: one that keeps every
/// element in order, which converters leave behind as an identity copy (the
/// attention mesh names its mesh output this way).
enum StridedSlice {
    /// Whether the slice keeps all of its input, in order, given its constant begin, end and strides.
    static func isIdentity(_ op: Operator, options: StridedSliceOptions, graph: Model) -> Bool {
        let shape = graph.tensors[op.inputs[0]].shape
        guard options.ellipsisMask == 0, options.newAxisMask == 0,
              let begin = graph.tensors[op.inputs[1]].constant?.integers,
              let end = graph.tensors[op.inputs[2]].constant?.integers,
              let strides = graph.tensors[op.inputs[3]].constant?.integers,
              begin.count == shape.count, end.count == shape.count, strides.count == shape.count else { return false }
        for (axis, size) in shape.enumerated() {
            let bit = 1 << axis
            var first = options.beginMask & bit != 0 ? 0 : Int(begin[axis])
            var last = options.endMask & bit != 0 ? size : Int(end[axis])
            if first < 0 { first += size }
            if last < 0 { last += size }
            guard strides[axis] == 1, first == 0, last >= size else { return false }
        }
        return graph.tensors[op.outputs[0]].elementCount == graph.tensors[op.inputs[0]].elementCount
    }
}
