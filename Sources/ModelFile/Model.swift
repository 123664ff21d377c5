/// A TensorFlow Lite model's main subgraph, read and folded for execution.
///
/// After loading, every weight is plain `Float32`: fp16 weights behind
/// `DEQUANTIZE` and sparse weights behind `DENSIFY` have been expanded, and those
/// operators removed. What remains is the operators an inference engine runs.
/// The value is immutable and can be shared freely between threads.
package struct Model: Sendable {
    /// Where the model came from (a path, or a label for in-memory bytes).
    package let file: String
    /// Every tensor of the subgraph, indexed as the operators refer to them.
    package let tensors: [Tensor]
    /// Operators in execution order.
    package let operators: [Operator]
    /// Indices of the subgraph's input tensors.
    package let inputs: [Int]
    /// Indices of the subgraph's output tensors.
    package let outputs: [Int]

    /// Creates a model from parts; `ModelLoader` is the usual way to get one.
    package init(file: String, tensors: [Tensor], operators: [Operator], inputs: [Int], outputs: [Int]) {
        self.file = file
        self.tensors = tensors
        self.operators = operators
        self.inputs = inputs
        self.outputs = outputs
    }
}

/// One tensor: its shape and, for weights, its constant values.
package struct Tensor: Sendable {
    /// The name the converter gave it.
    package let name: String
    /// Dimensions, outermost first (TFLite uses NHWC for images).
    package let shape: [Int]
    /// Element type as stored in the file (weights are exposed as `Float` regardless).
    package let type: TensorType
    /// Constant values, or nil for activations computed at run time.
    package let constant: ConstantValues?

    /// Creates a tensor.
    package init(name: String, shape: [Int], type: TensorType, constant: ConstantValues?) {
        self.name = name
        self.shape = shape
        self.type = type
        self.constant = constant
    }

    /// The number of elements the shape describes.
    package var elementCount: Int { shape.reduce(1, *) }
}

/// Constant data of a tensor, widened to the types the engine consumes.
package enum ConstantValues: Sendable {
    /// Floating-point weights (fp16 ones already widened), kept where they
    /// are for the runtimes that point at them.
    case stableFloats(StableFloats)
    /// Integer parameters such as paddings or shapes.
    case int32([Int32])

    /// Floating-point weights holding a copy of `values`.
    package static func float(_ values: [Float]) -> ConstantValues {
        .stableFloats(StableFloats(values))
    }

    /// A copy of the values as floats, or nil for integer data.
    package var floats: [Float]? {
        if case .stableFloats(let values) = self { return values.array }
        return nil
    }

    /// The float values in place, or nil for integer data.
    package var stableFloats: StableFloats? {
        if case .stableFloats(let values) = self { return values }
        return nil
    }

    /// The values as integers, or nil for float data.
    package var integers: [Int32]? {
        if case .int32(let values) = self { return values }
        return nil
    }
}

/// TFLite's element types that the loader recognises.
package enum TensorType: Sendable, Equatable {
    case float32, float16, int32, uint8, int64, int8
    /// Any other TFLite `TensorType` code.
    case other(UInt8)

    init(code: UInt8) {
        switch code {
        case 0: self = .float32
        case 1: self = .float16
        case 2: self = .int32
        case 3: self = .uint8
        case 4: self = .int64
        case 9: self = .int8
        default: self = .other(code)
        }
    }

    /// Bytes per element, or nil for types the loader does not decode.
    var byteWidth: Int? {
        switch self {
        case .float32, .int32: 4
        case .float16: 2
        case .uint8, .int8: 1
        case .int64: 8
        case .other: nil
        }
    }
}
