import ModelFile

/// A model's first convolution, the only reader of the model's input, run
/// outside the XNNPACK subgraph so that the rows of its output that depend
/// on nothing but a uniform border are computed once, not every run. Only a
/// model compiled with `letterboxedInput` runs it so: elsewhere (a mesh's
/// face crop) a border is rare and the convolution stays in the subgraph.
///
/// A detector's input is the frame letterboxed into a square: a 16:9 camera
/// frame leaves 28 of the short-range detector's 128 rows above the picture
/// and 28 below, all one value. The output rows whose window lies in that
/// border (and in the zero padding) are the same for every frame with the
/// same border; `BandedConvolution` keeps them from the last full run and
/// computes only the band between. A convolution computes each output from
/// its own window alone, in the same order whatever the other rows, so the
/// band's rows are the full run's to the bit. BlazeFace's first layer (5x5,
/// stride 2, 3 to 24 channels) is its costliest.
///
/// A RELU that alone reads the convolution's output is taken into it as its
/// clamp, as XNNPACK fuses the two inside a subgraph: left apart, it was one
/// more pass over the whole output, about 10 µs of the short-range detector.
struct LeadingConvolution: Sendable, Equatable {
    /// The operator's index in the graph.
    let operatorIndex: Int
    /// The RELU taken into the convolution, if any.
    let fusedReLUIndex: Int?
    /// The model input it reads and the tensor it writes: the RELU's output
    /// when one is taken in.
    let input: Int
    let output: Int
    /// The clamp of the outputs: the convolution's fused activation, narrowed by the RELU's.
    let outputRange: ClosedRange<Float>
    /// Input height and width, channels, and output height and width.
    let height: Int
    let width: Int
    let channels: Int
    let outputHeight: Int
    let outputWidth: Int
    /// Kernel height and width, and strides.
    let kernelHeight: Int
    let kernelWidth: Int
    let strideHeight: Int
    let strideWidth: Int
    /// Zero padding above the input and either side of it (TFLite's SAME puts the odd row or column after).
    let paddingTop: Int
    let paddingLeft: Int
    let paddingRight: Int
    let outputChannels: Int

    /// The leading convolution of `graph`, or nil when its single input is
    /// not read by exactly one operator that is an undilated CONV_2D over a
    /// batch of one, with a constant filter and bias.
    init?(graph: Model) {
        guard graph.inputs.count == 1 else { return nil }
        let input = graph.inputs[0]
        let readers = graph.operators.indices.filter { graph.operators[$0].inputs.contains(input) }
        guard readers.count == 1, let index = readers.first else { return nil }
        let op = graph.operators[index]
        guard case .conv2D(let options) = op.kind, op.inputs.first == input, op.inputs.count >= 2, op.outputs.count == 1,
              options.dilationHeight == 1, options.dilationWidth == 1,
              graph.tensors[op.inputs[1]].constant?.floats != nil,
              op.inputs.count < 3 || op.inputs[2] < 0 || graph.tensors[op.inputs[2]].constant?.floats != nil else { return nil }
        let shape = graph.tensors[input].shape, filter = graph.tensors[op.inputs[1]].shape
        let outputShape = graph.tensors[op.outputs[0]].shape
        guard shape.count == 4, shape[0] == 1, filter.count == 4, outputShape.count == 4, filter[3] == shape[3],
              outputShape[3] == filter[0] else { return nil }
        func padding(size: Int, output: Int, kernel: Int, stride: Int) -> (before: Int, after: Int) {
            guard options.padding == .same else { return (0, 0) }
            let total = max((output - 1) * stride + kernel - size, 0)
            return (total / 2, total - total / 2)
        }
        let vertical = padding(size: shape[1], output: outputShape[1], kernel: filter[1], stride: options.strideHeight)
        let horizontal = padding(size: shape[2], output: outputShape[2], kernel: filter[2], stride: options.strideWidth)
        operatorIndex = index
        self.input = input
        let convolved = op.outputs[0]
        let convolvedReaders = graph.operators.indices.filter { graph.operators[$0].inputs.contains(convolved) }
        if convolvedReaders.count == 1, !graph.outputs.contains(convolved),
           case let relu = graph.operators[convolvedReaders[0]], relu.kind == .relu, relu.inputs == [convolved], relu.outputs.count == 1 {
            fusedReLUIndex = convolvedReaders[0]
            output = relu.outputs[0]
            let range = options.activation.range
            outputRange = max(range.lowerBound, 0)...range.upperBound
        } else {
            fusedReLUIndex = nil
            output = convolved
            outputRange = options.activation.range
        }
        height = shape[1]
        width = shape[2]
        channels = shape[3]
        outputHeight = outputShape[1]
        outputWidth = outputShape[2]
        kernelHeight = filter[1]
        kernelWidth = filter[2]
        strideHeight = options.strideHeight
        strideWidth = options.strideWidth
        paddingTop = vertical.before
        paddingLeft = horizontal.before
        paddingRight = horizontal.after
        outputChannels = filter[0]
    }

    /// The graph's operators it runs: the convolution, and the RELU it took in.
    var operatorIndices: [Int] {
        [operatorIndex] + (fusedReLUIndex.map { [$0] } ?? [])
    }

    /// The output rows that must be computed when the input's first `top`
    /// rows and last `bottom` rows are each one uniform border: those whose
    /// window reaches a row between. Nil when computing them alone saves
    /// nothing, or when their windows would reach past the input's top or
    /// bottom (the band runs without vertical padding).
    func band(top: Int, bottom: Int) -> Range<Int>? {
        var first = 0
        while first < outputHeight, first * strideHeight - paddingTop + kernelHeight <= top { first += 1 }
        var end = outputHeight
        while end > first, (end - 1) * strideHeight - paddingTop >= height - bottom { end -= 1 }
        guard first < end, first > 0 || end < outputHeight,
              first * strideHeight - paddingTop >= 0, (end - 1) * strideHeight - paddingTop + kernelHeight <= height else { return nil }
        return first..<end
    }

    /// The input rows the output rows `band` read.
    func inputRows(of band: Range<Int>) -> Range<Int> {
        (band.lowerBound * strideHeight - paddingTop)..<((band.upperBound - 1) * strideHeight - paddingTop + kernelHeight)
    }
}
