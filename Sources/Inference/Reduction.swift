import ModelFile

/// MEAN and SUM over any set of axes, run on the host: the engine in use has
/// no reduction node for arbitrary axes.
///
/// When the reduced axes are adjacent (ignoring axes of size 1), as in layer
/// norms over channels, the input is read as [outer, reduced, inner] and summed
/// in order; otherwise a table maps each input element to its output element.
struct Reduction: Sendable {
    private var outer = 1
    private var reduced = 1
    private var inner = 1
    /// For non-adjacent axes: the output element of each input element.
    private var outputIndices: [Int32]?
    /// How many input elements make one output element.
    private let count: Int
    private let isMean: Bool

    init(_ op: Operator, options: ReductionOptions, isMean: Bool, graph: Model, fail: (String) -> InferenceError) throws {
        let name = isMean ? "MEAN" : "SUM"
        let shape = graph.tensors[op.inputs[0]].shape
        var axes = Set<Int>()
        for axis in options.axes {
            let normalized = axis < 0 ? axis + shape.count : axis
            guard (0..<shape.count).contains(normalized) else {
                throw fail("\(name) axis \(axis) is outside an input of rank \(shape.count)")
            }
            axes.insert(normalized)
        }
        let kept = shape.indices.filter { !axes.contains($0) }.map { shape[$0] }
        let expected = options.keepDims ? shape.indices.map { axes.contains($0) ? 1 : shape[$0] } : kept
        let outputShape = graph.tensors[op.outputs[0]].shape
        // Only the count matters: the output's elements are the kept positions in row-major order whatever its shape.
        guard outputShape.reduce(1, *) == expected.reduce(1, *) else {
            throw fail("\(name) over axes \(options.axes) of \(shape) gives \(expected), but the output tensor is \(outputShape)")
        }
        count = axes.map { shape[$0] }.reduce(1, *)
        guard count > 0 else { throw fail("\(name) reduces an empty axis of \(shape)") }
        self.isMean = isMean

        let significant = shape.indices.filter { shape[$0] > 1 }
        let reducedPositions = significant.indices.filter { axes.contains(significant[$0]) }
        if let first = reducedPositions.first, let last = reducedPositions.last, last - first + 1 != reducedPositions.count {
            outputIndices = Self.outputIndices(shape: shape, axes: axes)
        } else if let first = reducedPositions.first, let last = reducedPositions.last {
            outer = significant[..<first].map { shape[$0] }.reduce(1, *)
            reduced = count
            inner = significant[(last + 1)...].map { shape[$0] }.reduce(1, *)
        } else {
            outer = shape.reduce(1, *)
        }
    }

    /// Row-major output position of every input element, dropping the reduced axes.
    private static func outputIndices(shape: [Int], axes: Set<Int>) -> [Int32] {
        var strides = [Int](repeating: 0, count: shape.count)
        var stride = 1
        for axis in shape.indices.reversed() where !axes.contains(axis) {
            strides[axis] = stride
            stride *= shape[axis]
        }
        return IndexTable.rowMajor(counts: shape, steps: strides, base: 0)
    }

    func run(_ input: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>) {
        let source = input.baseAddress!
        let destination = output.baseAddress!
        destination.update(repeating: 0, count: output.count)
        if let outputIndices {
            for (element, target) in outputIndices.enumerated() { destination[Int(target)] += source[element] }
        } else if inner == 1 {
            for o in 0..<outer { destination[o] = Self.sum(source + o * reduced, count: reduced) }
        } else {
            for o in 0..<outer {
                let row = destination + o * inner
                for r in 0..<reduced {
                    let values = source + (o * reduced + r) * inner
                    for i in 0..<inner { row[i] += values[i] }
                }
            }
        }
        if isMean {
            let divisor = Float(count)
            for i in 0..<output.count { destination[i] /= divisor }
        }
    }

    /// The sum of a contiguous run, in eight interleaved partial sums: a layer
    /// norm reduces each row of channels this way, and one running sum would
    /// wait on the latency of every addition in turn.
    private static func sum(_ values: UnsafePointer<Float>, count: Int) -> Float {
        var lanes = SIMD8<Float>()
        var index = 0
        while index + 8 <= count {
            lanes += UnsafeRawPointer(values + index).loadUnaligned(as: SIMD8<Float>.self)
            index += 8
        }
        var total = lanes.sum()
        while index < count {
            total += values[index]
            index += 1
        }
        return total
    }
}
