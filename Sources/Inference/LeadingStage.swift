import ModelFile

/// The operators after a model's `LeadingConvolution` that keep the height
/// and width of its output: in BlazeFace, the two residual blocks at 64x64
/// before the first stride-2 block, about a third of the detector's time.
///
/// Like the convolution before them, they compute each output row from a
/// window of rows around it, so a letterbox border decides most of their
/// rows too. `BandedStage` runs them over the rows the convolution's band
/// reaches, widened by their `halo`, and keeps the others from the last
/// whole run. An operator joins only if every output depends on a bounded
/// window of rows and is computed from it in an order the band's height
/// does not change: stride-1 convolutions and depthwise convolutions,
/// RELU, the sum of two such tensors, and a PAD of channels alone.
struct LeadingStage: Sendable, Equatable {
    /// The operators, in file order.
    let operators: [Int]
    /// The tensor it reads (the leading convolution's output) and the one
    /// tensor it computes that anything after it reads.
    let input: Int
    let output: Int
    /// Rows and columns of both.
    let height: Int
    let width: Int
    let inputChannels: Int
    let outputChannels: Int
    /// How many rows of an output row's window lie above or below it, over
    /// the whole stage: a run over a band of rows gets this many rows at a
    /// cut edge wrong, as it pads the cut with zeros.
    let halo: Int

    /// The stage after `leading` in `graph`, or nil when no operator after
    /// it qualifies.
    init?(graph: Model, after leading: LeadingConvolution) {
        let shape = graph.tensors[leading.output].shape
        guard shape.count == 4, shape[0] == 1 else { return nil }
        let height = shape[1], width = shape[2]
        let skipped = Set(leading.operatorIndices)
        var halos = [leading.output: 0]
        var operators: [Int] = []
        for (index, op) in graph.operators.enumerated() where !skipped.contains(index) {
            let computed = op.inputs.filter { $0 >= 0 && graph.tensors[$0].constant == nil }
            let inputHalos = computed.compactMap { halos[$0] }
            guard op.outputs.count == 1, !computed.isEmpty, inputHalos.count == computed.count,
                  case let outputShape = graph.tensors[op.outputs[0]].shape,
                  outputShape.count == 4, outputShape[0] == 1, outputShape[1] == height, outputShape[2] == width,
                  let reach = Self.reach(of: op, computedInputs: computed.count, graph: graph) else { break }
            halos[op.outputs[0]] = inputHalos.max()! + reach
            operators.append(index)
        }
        // Drop operators from the end until exactly one tensor leaves the stage.
        let modelOutputs = Set(graph.outputs)
        while !operators.isEmpty {
            let inside = Set(operators).union(skipped)
            let computedHere = Set(operators.flatMap { graph.operators[$0].outputs })
            var leaving = computedHere.intersection(modelOutputs)
            for (index, op) in graph.operators.enumerated() where !inside.contains(index) {
                leaving.formUnion(op.inputs.filter { computedHere.contains($0) })
            }
            if leaving.count == 1, let output = leaving.first {
                self.operators = operators
                input = leading.output
                self.output = output
                self.height = height
                self.width = width
                inputChannels = shape[3]
                outputChannels = graph.tensors[output].shape[3]
                halo = operators.map { halos[graph.operators[$0].outputs[0]]! }.max()!
                return
            }
            operators.removeLast()
        }
        return nil
    }

    /// How far above or below its output row an operator reads, or nil when
    /// it cannot join a stage.
    private static func reach(of op: Operator, computedInputs: Int, graph: Model) -> Int? {
        func window(_ options: ConvolutionOptions, filter: Int) -> Int? {
            let shape = graph.tensors[filter].shape // [O or 1, kh, kw, I]
            guard shape.count == 4, options.strideHeight == 1, options.strideWidth == 1,
                  options.dilationHeight == 1, options.dilationWidth == 1,
                  options.padding == .same || (shape[1] == 1 && shape[2] == 1) else { return nil }
            return shape[1] / 2
        }
        switch op.kind {
        case .conv2D(let options) where computedInputs == 1:
            return window(options, filter: op.inputs[1])
        case .depthwiseConv2D(let options, _) where computedInputs == 1:
            return window(options, filter: op.inputs[1])
        case .relu:
            return 0
        case .add where computedInputs == 2 && op.inputs.count == 2:
            return 0
        case .pad:
            guard let amounts = graph.tensors[op.inputs[1]].constant?.integers, amounts.count == 8,
                  amounts[0..<6].allSatisfy({ $0 == 0 }) else { return nil }
            return 0
        default:
            return nil
        }
    }

    /// The input rows to run over when the leading convolution computed only
    /// the rows `band`: every row whose stage output depends on them, and
    /// the rows those outputs read.
    func inputRows(after band: Range<Int>) -> Range<Int> {
        max(band.lowerBound - 2 * halo, 0)..<min(band.upperBound + 2 * halo, height)
    }
}
