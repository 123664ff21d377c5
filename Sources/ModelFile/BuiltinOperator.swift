/// TFLite builtin operator codes (`BuiltinOperator` in the schema) that the
/// loader knows by name: the ones FaceWorker runs or folds away.
enum BuiltinOperator: Int32 {
    case add = 0
    case concatenation = 2
    case conv2D = 3
    case depthwiseConv2D = 4
    case depthToSpace = 5
    case dequantize = 6
    case logistic = 14
    case maxPool2D = 17
    case mul = 18
    case relu = 19
    case reshape = 22
    case resizeBilinear = 23
    case custom = 32
    case pad = 34
    case transpose = 39
    case mean = 40
    case sub = 41
    case div = 42
    case stridedSlice = 45
    case prelu = 54
    case neg = 59
    case sum = 74
    case sqrt = 75
    case rsqrt = 76
    case squaredDifference = 99
    case densify = 124

    /// Names of everything supported, for error messages.
    static let supportedNames = "ADD, CONCATENATION, CONV_2D, DEPTHWISE_CONV_2D, DEPTH_TO_SPACE, DEQUANTIZE (of fp16 weights), DENSIFY (of weights), DIV, LOGISTIC, MAX_POOL_2D, MEAN, MUL, NEG, PAD, PRELU, RELU, RESHAPE, RESIZE_BILINEAR, RSQRT, SQRT, SQUARED_DIFFERENCE, STRIDED_SLICE, SUB, SUM, TRANSPOSE, and custom operators"
}
