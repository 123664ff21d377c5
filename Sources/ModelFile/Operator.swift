/// One operator of the folded graph, with its tensor indices.
///
/// An input index of -1 marks an optional input that is absent (a convolution
/// without bias, for instance), as in TFLite.
package struct Operator: Sendable {
    /// What the operator computes, with its options.
    package let kind: OperatorKind
    /// Indices of input tensors.
    package let inputs: [Int]
    /// Indices of output tensors.
    package let outputs: [Int]

    /// Creates an operator.
    package init(kind: OperatorKind, inputs: [Int], outputs: [Int]) {
        self.kind = kind
        self.inputs = inputs
        self.outputs = outputs
    }
}

/// The operators FaceWorker runs, each with the options the engine needs.
package enum OperatorKind: Sendable, Equatable {
    case conv2D(ConvolutionOptions)
    /// Depthwise convolution; `depthMultiplier` output channels per input channel.
    case depthwiseConv2D(ConvolutionOptions, depthMultiplier: Int)
    case add(Activation)
    case relu
    /// The sigmoid 1 / (1 + e^-x), elementwise.
    case logistic
    /// Parametric ReLU; input 1 holds the per-channel slopes.
    case prelu
    case maxPool2D(PoolOptions)
    /// Constant zero padding; input 1 holds `[rank, 2]` before/after amounts.
    case pad
    /// Reshape to the output tensor's shape.
    case reshape
    case resizeBilinear(alignCorners: Bool, halfPixelCenters: Bool)
    case depthToSpace(blockSize: Int)
    case concatenation(axis: Int, activation: Activation)
    /// Elementwise product with NumPy broadcasting.
    case mul(Activation)
    /// Elementwise difference (input 0 minus input 1) with NumPy broadcasting.
    case sub(Activation)
    /// Elementwise quotient (input 0 over input 1) with NumPy broadcasting.
    case div(Activation)
    /// (input 0 - input 1)^2, elementwise with NumPy broadcasting.
    case squaredDifference
    /// -x, elementwise.
    case neg
    /// The square root, elementwise.
    case sqrt
    /// 1 / sqrt(x), elementwise.
    case rsqrt
    /// The mean over the axes of constant input 1.
    case mean(ReductionOptions)
    /// The sum over the axes of constant input 1.
    case sum(ReductionOptions)
    /// Dimensions reordered: output dimension i is input dimension `permutation[i]`.
    case transpose(permutation: [Int])
    /// A strided slice; begin, end and strides are constant inputs 1 to 3.
    case stridedSlice(StridedSliceOptions)
    /// An operator outside TFLite's builtins, named by the file; the inference
    /// layer decides whether it has a kernel for it.
    case custom(CustomOperator)

    /// The TFLite name, for messages.
    package var name: String {
        switch self {
        case .conv2D: "CONV_2D"
        case .depthwiseConv2D: "DEPTHWISE_CONV_2D"
        case .add: "ADD"
        case .relu: "RELU"
        case .logistic: "LOGISTIC"
        case .prelu: "PRELU"
        case .maxPool2D: "MAX_POOL_2D"
        case .pad: "PAD"
        case .reshape: "RESHAPE"
        case .resizeBilinear: "RESIZE_BILINEAR"
        case .depthToSpace: "DEPTH_TO_SPACE"
        case .concatenation: "CONCATENATION"
        case .mul: "MUL"
        case .sub: "SUB"
        case .div: "DIV"
        case .squaredDifference: "SQUARED_DIFFERENCE"
        case .neg: "NEG"
        case .sqrt: "SQRT"
        case .rsqrt: "RSQRT"
        case .mean: "MEAN"
        case .sum: "SUM"
        case .transpose: "TRANSPOSE"
        case .stridedSlice: "STRIDED_SLICE"
        case .custom(let custom): custom.name
        }
    }
}

/// TFLite's padding schemes.
package enum Padding: Sendable, Equatable {
    /// Output size ceil(input / stride), zero padding split with the extra on the bottom/right.
    case same
    /// No padding.
    case valid
}

/// An activation fused into the preceding operator.
package enum Activation: Sendable, Equatable {
    case none, relu, reluN1To1, relu6

    /// The clamp range the activation amounts to.
    package var range: ClosedRange<Float> {
        switch self {
        case .none: -Float.infinity...Float.infinity
        case .relu: 0...Float.infinity
        case .reluN1To1: -1...1
        case .relu6: 0...6
        }
    }
}

/// Options of a 2-D convolution (regular or depthwise).
package struct ConvolutionOptions: Sendable, Equatable {
    package var padding: Padding
    package var strideWidth: Int
    package var strideHeight: Int
    package var dilationWidth: Int
    package var dilationHeight: Int
    package var activation: Activation

    /// Creates convolution options.
    package init(padding: Padding, strideWidth: Int, strideHeight: Int, dilationWidth: Int, dilationHeight: Int, activation: Activation) {
        self.padding = padding
        self.strideWidth = strideWidth
        self.strideHeight = strideHeight
        self.dilationWidth = dilationWidth
        self.dilationHeight = dilationHeight
        self.activation = activation
    }
}

/// Options of a 2-D pooling operator.
package struct PoolOptions: Sendable, Equatable {
    package var padding: Padding
    package var strideWidth: Int
    package var strideHeight: Int
    package var filterWidth: Int
    package var filterHeight: Int
    package var activation: Activation

    /// Creates pooling options.
    package init(padding: Padding, strideWidth: Int, strideHeight: Int, filterWidth: Int, filterHeight: Int, activation: Activation) {
        self.padding = padding
        self.strideWidth = strideWidth
        self.strideHeight = strideHeight
        self.filterWidth = filterWidth
        self.filterHeight = filterHeight
        self.activation = activation
    }
}

/// What a reduction (MEAN, SUM) reduces, read from the file when it loads.
package struct ReductionOptions: Sendable, Equatable {
    /// The axes reduced, as the file gives them: negative ones count from the end.
    package var axes: [Int]
    /// Whether reduced axes stay in the output with size 1 (TFLite's `keep_dims`).
    package var keepDims: Bool

    /// Creates reduction options.
    package init(axes: [Int], keepDims: Bool) {
        self.axes = axes
        self.keepDims = keepDims
    }
}

/// The masks of a strided slice (TFLite's `StridedSliceOptions`): bit i of a
/// mask applies to dimension i.
package struct StridedSliceOptions: Sendable, Equatable {
    package var beginMask: Int
    package var endMask: Int
    package var ellipsisMask: Int
    package var newAxisMask: Int
    package var shrinkAxisMask: Int

    /// Creates slice options.
    package init(beginMask: Int, endMask: Int, ellipsisMask: Int, newAxisMask: Int, shrinkAxisMask: Int) {
        self.beginMask = beginMask
        self.endMask = endMask
        self.ellipsisMask = ellipsisMask
        self.newAxisMask = newAxisMask
        self.shrinkAxisMask = shrinkAxisMask
    }
}

/// A custom operator as the file names it, with its options decoded.
package struct CustomOperator: Sendable, Equatable {
    /// The operator's `custom_code`, such as `TransformLandmarks`.
    package var name: String
    /// The operator code's version, which selects the semantics of some custom kernels.
    package var version: Int
    /// The decoded FlexBuffer options; `.null` when the file stores none.
    package var options: FlexValue

    /// Creates a custom operator.
    package init(name: String, version: Int, options: FlexValue) {
        self.name = name
        self.version = version
        self.options = options
    }
}
