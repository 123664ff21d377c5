// The TensorFlow Lite schema (`schema.fbs`, namespace `tflite`) as far as the
// loader reads it: each table's fields by slot, and the byte-sized enums the
// loader interprets. Names follow the schema's, in Swift case. A table lists its
// fields in declaration order up to the last one read, so each slot number can
// be checked against the schema by counting; a union field takes two slots,
// its `_type` byte and then its value.

/// `table Model`, the root table.
enum ModelSlot: Int, FlatBufferField {
    case version = 0
    case operatorCodes = 1
    case subgraphs = 2
    case description = 3
    case buffers = 4
}

/// `table OperatorCode`.
enum OperatorCodeSlot: Int, FlatBufferField {
    /// The code as a byte, the only one older files store; codes above 127 are in `builtinCode`.
    case deprecatedBuiltinCode = 0
    case customCode = 1
    case version = 2
    case builtinCode = 3
}

/// `table SubGraph`.
enum SubGraphSlot: Int, FlatBufferField {
    case tensors = 0
    case inputs = 1
    case outputs = 2
    case operators = 3
}

/// `table Tensor`.
enum TensorSlot: Int, FlatBufferField {
    case shape = 0
    case type = 1
    case buffer = 2
    case name = 3
    case quantization = 4
    case isVariable = 5
    case sparsity = 6
}

/// `table Buffer`.
enum BufferSlot: Int, FlatBufferField {
    case data = 0
    /// With `size`, data kept after the flatbuffer (models over 2 GB); valid only when above 1.
    case offset = 1
    case size = 2
}

/// `table Operator`.
enum OperatorSlot: Int, FlatBufferField {
    case opcodeIndex = 0
    case inputs = 1
    case outputs = 2
    case builtinOptionsType = 3
    case builtinOptions = 4
    case customOptions = 5
    case customOptionsFormat = 6
}

/// `table SparsityParameters`.
enum SparsityParametersSlot: Int, FlatBufferField {
    case traversalOrder = 0
    case blockMap = 1
    case dimMetadata = 2
}

/// `table DimensionMetadata`: one level of a sparse tensor.
enum DimensionMetadataSlot: Int, FlatBufferField {
    case format = 0
    case denseSize = 1
    case arraySegmentsType = 2
    case arraySegments = 3
    case arrayIndicesType = 4
    case arrayIndices = 5
}

/// `table Int32Vector`, `table Uint16Vector` and `table Uint8Vector`, the
/// members of `union SparseIndexVector`, which differ only in element type.
enum IndexVectorSlot: Int, FlatBufferField {
    case values = 0
}

/// The fields every convolution's options table has, at slots of its own.
protocol ConvolutionOptionsSlot: FlatBufferField {
    static var padding: Self { get }
    static var strideW: Self { get }
    static var strideH: Self { get }
    static var fusedActivationFunction: Self { get }
    static var dilationWFactor: Self { get }
    static var dilationHFactor: Self { get }
}

/// `table Conv2DOptions`.
enum Conv2DOptionsSlot: Int, ConvolutionOptionsSlot {
    case padding = 0
    case strideW = 1
    case strideH = 2
    case fusedActivationFunction = 3
    case dilationWFactor = 4
    case dilationHFactor = 5
}

/// `table DepthwiseConv2DOptions`.
enum DepthwiseConv2DOptionsSlot: Int, ConvolutionOptionsSlot {
    case padding = 0
    case strideW = 1
    case strideH = 2
    /// Redundant with the tensors' channel counts, from which the loader takes it.
    case depthMultiplier = 3
    case fusedActivationFunction = 4
    case dilationWFactor = 5
    case dilationHFactor = 6
}

/// `table Pool2DOptions`.
enum Pool2DOptionsSlot: Int, FlatBufferField {
    case padding = 0
    case strideW = 1
    case strideH = 2
    case filterWidth = 3
    case filterHeight = 4
    case fusedActivationFunction = 5
}

/// `table AddOptions`.
enum AddOptionsSlot: Int, FlatBufferField {
    case fusedActivationFunction = 0
}

/// `table MulOptions`.
enum MulOptionsSlot: Int, FlatBufferField {
    case fusedActivationFunction = 0
}

/// `table SubOptions`.
enum SubOptionsSlot: Int, FlatBufferField {
    case fusedActivationFunction = 0
}

/// `table DivOptions`.
enum DivOptionsSlot: Int, FlatBufferField {
    case fusedActivationFunction = 0
}

/// `table ReducerOptions`, the options of MEAN and SUM.
enum ReducerOptionsSlot: Int, FlatBufferField {
    case keepDims = 0
}

/// `table ConcatenationOptions`.
enum ConcatenationOptionsSlot: Int, FlatBufferField {
    case axis = 0
    case fusedActivationFunction = 1
}

/// `table ResizeBilinearOptions`.
enum ResizeBilinearOptionsSlot: Int, FlatBufferField {
    case newHeight = 0
    case newWidth = 1
    case alignCorners = 2
    case halfPixelCenters = 3
}

/// `table DepthToSpaceOptions`.
enum DepthToSpaceOptionsSlot: Int, FlatBufferField {
    case blockSize = 0
}

/// `table StridedSliceOptions`.
enum StridedSliceOptionsSlot: Int, FlatBufferField {
    case beginMask = 0
    case endMask = 1
    case ellipsisMask = 2
    case newAxisMask = 3
    case shrinkAxisMask = 4
    /// When set, `end` counts from `begin`; the loader refuses it.
    case offset = 5
}

/// `enum DimensionType`: how a sparse tensor stores one level.
enum DimensionType: UInt8 {
    case dense = 0
    case sparseCSR = 1
}

/// `union SparseIndexVector`'s type byte (0, NONE, means the vector is absent).
enum SparseIndexVectorType: UInt8 {
    case int32Vector = 1
    case uint16Vector = 2
    case uint8Vector = 3
}

/// `enum CustomOptionsFormat`: how a custom operator's options blob is encoded.
enum CustomOptionsFormat: Int8 {
    case flexBuffers = 0
}

extension Padding {
    /// The schema's `enum Padding` byte: SAME = 0, VALID = 1.
    init?(schemaValue: UInt8) {
        switch schemaValue {
        case 0: self = .same
        case 1: self = .valid
        default: return nil
        }
    }
}

extension Activation {
    /// The schema's `enum ActivationFunctionType` byte: NONE = 0, RELU = 1,
    /// RELU_N1_TO_1 = 2, RELU6 = 3; TANH and SIGN_BIT are not supported.
    init?(schemaValue: UInt8) {
        switch schemaValue {
        case 0: self = .none
        case 1: self = .relu
        case 2: self = .reluN1To1
        case 3: self = .relu6
        default: return nil
        }
    }
}
