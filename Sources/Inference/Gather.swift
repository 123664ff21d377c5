import ModelFile

/// A strided slice, run on the host as "output element i is input element
/// `sources[i]`": XNNPACK's slice node takes neither strides other than 1 nor
/// shrunk axes.
struct Gather: Sendable {
    private let sources: [Int32]

    /// STRIDED_SLICE with TFLite's begin, end, stride and shrink semantics.
    init(slicing op: Operator, options: StridedSliceOptions, graph: Model, fail: (String) -> InferenceError) throws {
        let shape = graph.tensors[op.inputs[0]].shape
        guard options.ellipsisMask == 0, options.newAxisMask == 0 else {
            throw fail("STRIDED_SLICE with an ellipsis or new-axis mask is not supported")
        }
        guard let begin = graph.tensors[op.inputs[1]].constant?.integers,
              let end = graph.tensors[op.inputs[2]].constant?.integers,
              let strides = graph.tensors[op.inputs[3]].constant?.integers,
              begin.count == end.count, end.count == strides.count, begin.count <= shape.count else {
            throw fail("STRIDED_SLICE needs constant begin, end and strides of one length, at most the input's rank \(shape.count)")
        }
        let inputStrides = IndexTable.strides(of: shape)
        var counts: [Int] = []
        var steps: [Int] = []
        var keptCounts: [Int] = []
        var base = 0
        for (axis, size) in shape.enumerated() {
            let bit = 1 << axis
            guard axis < begin.count else {
                counts.append(size); steps.append(inputStrides[axis]); keptCounts.append(size)
                continue
            }
            let stride = Int(strides[axis])
            guard stride != 0 else { throw fail("STRIDED_SLICE has stride 0 on axis \(axis)") }
            let (low, high) = stride > 0 ? (0, size) : (-1, size - 1)
            func bound(_ value: Int32) -> Int {
                let value = Int(value)
                return min(max(value < 0 ? value + size : value, low), high)
            }
            let start = options.beginMask & bit != 0 ? (stride > 0 ? 0 : size - 1) : bound(begin[axis])
            let count: Int
            if options.shrinkAxisMask & bit != 0 {
                guard (0..<size).contains(start) else {
                    throw fail("STRIDED_SLICE shrinks axis \(axis) at \(begin[axis]), outside its size \(size)")
                }
                count = 1
            } else {
                let stop = options.endMask & bit != 0 ? (stride > 0 ? size : -1) : bound(end[axis])
                count = stride > 0 ? max(0, (stop - start + stride - 1) / stride) : max(0, (start - stop - stride - 1) / -stride)
                keptCounts.append(count)
            }
            counts.append(count)
            steps.append(stride * inputStrides[axis])
            base += count > 0 ? start * inputStrides[axis] : 0
        }
        let outputShape = graph.tensors[op.outputs[0]].shape
        guard outputShape == keptCounts else {
            throw fail("STRIDED_SLICE of \(shape) from \(begin) to \(end) by \(strides) gives \(keptCounts), but the output tensor is \(outputShape)")
        }
        sources = IndexTable.rowMajor(counts: counts, steps: steps, base: base)
    }

    func run(_ input: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>) {
        let source = input.baseAddress!
        for (element, index) in sources.enumerated() { output[element] = source[Int(index)] }
    }
}
