import Foundation

/// Reads `.tflite` files into folded `Model`s.
///
/// Only the main subgraph is read, and only the operators listed in
/// `BuiltinOperator.supportedNames`; anything else is a thrown `ModelFileError`
/// naming the file and the problem.
public enum ModelLoader {
    /// Largest tensor the loader accepts, in elements; a guard against shapes
    /// that would make the engine allocate absurd amounts.
    static let maximumElements = 1 << 28

    /// Loads and folds the model at `path`.
    public static func load(path: String) throws -> Model {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ModelFileError(file: path, problem: "cannot be read (missing, or not a readable file); run `make models` to fetch the models")
        }
        return try load(bytes: [UInt8](data), file: path)
    }

    /// Loads and folds a model from bytes; `file` labels errors.
    public static func load(bytes: [UInt8], file: String) throws -> Model {
        let reader = FlatBufferReader(bytes: bytes, file: file)
        guard bytes.count >= 8 else {
            throw reader.fail("is \(bytes.count) bytes long, too short to be a TensorFlow Lite model")
        }
        let identifier = bytes[4..<8]
        guard identifier.elementsEqual("TFL3".utf8) else {
            let shown = identifier.map { (0x20..<0x7F).contains($0) ? String(UnicodeScalar($0)) : "." }.joined()
            throw reader.fail("is not a TensorFlow Lite model (file identifier '\(shown)', expected 'TFL3')")
        }
        return try RawModel(reader: reader).folded()
    }
}

/// The file as stored, before folding.
private struct RawModel {
    struct RawTensor {
        var name: String
        var shape: [Int]
        var type: TensorType
        var constant: ConstantValues?
        var sparsity: SparsityParameters?
    }

    struct RawOperator {
        var code: OperatorCode
        var inputs: [Int]
        var outputs: [Int]
        var options: FlatBufferReader.Table?
        /// The FlexBuffer blob of a custom operator (empty when it has none).
        var customOptions: ArraySlice<UInt8>
        /// 0 is FLEXBUFFERS, the only format TFLite defines.
        var customOptionsFormat: Int8
    }

    /// An entry of the file's operator code table.
    struct OperatorCode {
        /// The builtin code; the file keeps it in `deprecated_builtin_code` for
        /// codes below 127 and in `builtin_code` above, so the larger of the two
        /// is the real one.
        var builtin: Int32
        var customName: String?
        var version: Int
    }

    let reader: FlatBufferReader
    var tensors: [RawTensor] = []
    var operators: [RawOperator] = []
    var inputs: [Int] = []
    var outputs: [Int] = []

    init(reader: FlatBufferReader) throws {
        self.reader = reader
        let root = try reader.rootTable()
        let codes = try root.tables(1).map { code -> OperatorCode in
            let deprecated = Int32(try code.scalar(0, default: Int8(0)))
            return OperatorCode(builtin: max(deprecated, try code.scalar(3, default: Int32(0))),
                                customName: try code.string(1),
                                version: Int(try code.scalar(2, default: Int32(1))))
        }
        let buffers = try root.tables(4)
        let subgraphs = try root.tables(2)
        guard let main = subgraphs.first else { throw reader.fail("has no subgraph") }

        for (index, table) in try main.tables(0).enumerated() {
            tensors.append(try Self.tensor(table, index: index, buffers: buffers, reader: reader))
        }
        let tensorCount = tensors.count
        func indices(_ raw: [Int32], _ what: String) throws -> [Int] {
            try raw.map { value in
                guard value >= -1, Int(value) < tensorCount else {
                    throw reader.fail("\(what) refers to tensor \(value), but the subgraph has \(tensorCount) tensors")
                }
                return Int(value)
            }
        }
        inputs = try indices(try main.scalars(1, as: Int32.self), "the subgraph's input list")
        outputs = try indices(try main.scalars(2, as: Int32.self), "the subgraph's output list")
        for (index, table) in try main.tables(3).enumerated() {
            let opcodeIndex = Int(try table.scalar(0, default: UInt32(0)))
            guard opcodeIndex < codes.count else {
                throw reader.fail("operator \(index) uses operator code \(opcodeIndex), but the file lists \(codes.count)")
            }
            operators.append(RawOperator(
                code: codes[opcodeIndex],
                inputs: try indices(try table.scalars(1, as: Int32.self), "operator \(index)'s inputs"),
                outputs: try indices(try table.scalars(2, as: Int32.self), "operator \(index)'s outputs"),
                options: try table.table(4),
                customOptions: try table.vector(5)?.byteSlice() ?? [],
                customOptionsFormat: try table.scalar(6, default: Int8(0))
            ))
        }
    }

    private static func tensor(_ table: FlatBufferReader.Table, index: Int, buffers: [FlatBufferReader.Table], reader: FlatBufferReader) throws -> RawTensor {
        let name = try table.string(3) ?? "tensor \(index)"
        let shape = try table.scalars(0, as: Int32.self).map(Int.init)
        guard shape.allSatisfy({ $0 >= 0 }) else {
            throw reader.fail("tensor \(index) ('\(name)') has a dynamic or negative shape \(shape)")
        }
        var elements = 1
        for dimension in shape {
            let (product, overflow) = elements.multipliedReportingOverflow(by: dimension)
            guard !overflow, product <= ModelLoader.maximumElements else {
                throw reader.fail("tensor \(index) ('\(name)') shape \(shape) is too large")
            }
            elements = product
        }
        let type = TensorType(code: try table.scalar(1, default: UInt8(0)))
        let sparsity = try table.table(6).map { try Self.sparsity($0, reader: reader) }

        var constant: ConstantValues?
        let bufferIndex = Int(try table.scalar(2, default: UInt32(0)))
        if bufferIndex > 0 {
            guard bufferIndex < buffers.count else {
                throw reader.fail("tensor \(index) ('\(name)') uses buffer \(bufferIndex), but the file has \(buffers.count)")
            }
            let bytes = try Self.bufferBytes(buffers[bufferIndex], reader: reader)
            if !bytes.isEmpty {
                constant = try Self.decode(bytes, type: type, expectedElements: sparsity == nil ? elements : nil, tensor: "tensor \(index) ('\(name)')", reader: reader)
            }
        }
        return RawTensor(name: name, shape: shape, type: type, constant: constant, sparsity: sparsity)
    }

    private static func bufferBytes(_ buffer: FlatBufferReader.Table, reader: FlatBufferReader) throws -> ArraySlice<UInt8> {
        // Large models keep data after the flatbuffer, addressed by offset and size.
        let offset = try buffer.scalar(1, default: UInt64(0))
        if offset > 1 {
            let size = try buffer.scalar(2, default: UInt64(0))
            guard offset <= UInt64(reader.bytes.count), size <= UInt64(reader.bytes.count) - offset else {
                throw reader.fail("a buffer at offset \(offset) of \(size) bytes lies outside the file of \(reader.bytes.count) bytes")
            }
            return reader.bytes[Int(offset)..<Int(offset + size)]
        }
        return try buffer.vector(0)?.byteSlice() ?? []
    }

    private static func decode(_ bytes: ArraySlice<UInt8>, type: TensorType, expectedElements: Int?, tensor: String, reader: FlatBufferReader) throws -> ConstantValues {
        guard let width = type.byteWidth, [TensorType.float32, .float16, .int32].contains(type) else {
            throw reader.fail("\(tensor) holds constant data of type \(type), which FaceWorker does not support (float32, float16, int32)")
        }
        guard bytes.count % width == 0 else {
            throw reader.fail("\(tensor) has \(bytes.count) bytes of data, not a multiple of its element size \(width)")
        }
        let count = bytes.count / width
        if let expected = expectedElements, expected != count {
            throw reader.fail("\(tensor) has \(count) elements of data but its shape needs \(expected)")
        }
        let base = bytes.startIndex
        func word(_ i: Int) -> UInt32 {
            let p = base + 4 * i
            return UInt32(bytes[p]) | UInt32(bytes[p + 1]) << 8 | UInt32(bytes[p + 2]) << 16 | UInt32(bytes[p + 3]) << 24
        }
        switch type {
        case .float32:
            return .float((0..<count).map { Float(bitPattern: word($0)) })
        case .float16:
            return .float((0..<count).map { i in
                floatFromHalf(UInt16(bytes[base + 2 * i]) | UInt16(bytes[base + 2 * i + 1]) << 8)
            })
        default:
            return .int32((0..<count).map { Int32(bitPattern: word($0)) })
        }
    }

    private static func sparsity(_ table: FlatBufferReader.Table, reader: FlatBufferReader) throws -> SparsityParameters {
        let levels = try table.tables(2).map { level -> SparsityParameters.Level in
            let format = try level.scalar(0, default: UInt8(0))
            if format == 0 {
                return .dense(size: Int(try level.scalar(1, default: Int32(0))))
            }
            return .sparse(
                segments: try Self.indexVector(level, typeField: 2, valueField: 3, reader: reader),
                indices: try Self.indexVector(level, typeField: 4, valueField: 5, reader: reader)
            )
        }
        return SparsityParameters(
            traversalOrder: try table.scalars(0, as: Int32.self).map(Int.init),
            blockMap: try table.scalars(1, as: Int32.self).map(Int.init),
            levels: levels
        )
    }

    /// Reads a `SparseIndexVector` union (Int32Vector, Uint16Vector or Uint8Vector).
    private static func indexVector(_ level: FlatBufferReader.Table, typeField: Int, valueField: Int, reader: FlatBufferReader) throws -> [Int] {
        let type = try level.scalar(typeField, default: UInt8(0))
        guard let vector = try level.table(valueField) else {
            throw reader.fail("a sparse dimension lacks its index vector")
        }
        switch type {
        case 1: return try vector.scalars(0, as: Int32.self).map(Int.init)
        case 2: return try vector.scalars(0, as: UInt16.self).map(Int.init)
        case 3: return try vector.scalars(0, as: UInt8.self).map(Int.init)
        default: throw reader.fail("a sparse dimension has index vector type \(type), expected 1, 2 or 3")
        }
    }

    /// Folds weight-only operators into constants and maps the rest to `OperatorKind`s.
    func folded() throws -> Model {
        var tensors = self.tensors
        var kept: [Operator] = []
        var written = Set(inputs)
        for (index, op) in operators.enumerated() {
            let known = BuiltinOperator(rawValue: op.code.builtin)
            for input in op.inputs where input >= 0 && tensors[input].constant == nil && tensors[input].sparsity == nil && !written.contains(input) {
                throw reader.fail("operator \(index) reads tensor \(input) ('\(tensors[input].name)') before anything computes it")
            }
            switch known {
            case .dequantize, .densify:
                guard op.inputs.count == 1, op.outputs.count == 1, op.inputs[0] >= 0, op.outputs[0] >= 0,
                      let source = tensors[op.inputs[0]].constant?.floats else {
                    throw reader.fail("operator \(index) (\(known == .dequantize ? "DEQUANTIZE" : "DENSIFY")) has no constant float input; only weights can be folded")
                }
                let output = op.outputs[0]
                var values = source
                if known == .densify {
                    guard let sparsity = tensors[op.inputs[0]].sparsity else {
                        throw reader.fail("operator \(index) (DENSIFY) input has no sparsity metadata")
                    }
                    values = try sparsity.densify(source, shape: tensors[output].shape, fail: reader.fail)
                }
                guard values.count == tensors[output].shape.reduce(1, *) else {
                    throw reader.fail("operator \(index) folds \(values.count) values into tensor \(output) of shape \(tensors[output].shape)")
                }
                tensors[output].constant = .float(values)
            default:
                let kind = try operatorKind(known, op: op, index: index, tensors: tensors)
                kept.append(Operator(kind: kind, inputs: op.inputs, outputs: op.outputs))
                written.formUnion(op.outputs)
            }
        }
        for output in outputs where !written.contains(output) {
            throw reader.fail("model output tensor \(output) ('\(tensors[output].name)') is never computed")
        }
        return Model(
            file: reader.file,
            tensors: tensors.map { Tensor(name: $0.name, shape: $0.shape, type: $0.type, constant: $0.constant) },
            operators: kept,
            inputs: inputs,
            outputs: outputs
        )
    }

    private func customOperator(_ op: RawOperator, index: Int) throws -> CustomOperator {
        guard let name = op.code.customName, !name.isEmpty else {
            throw reader.fail("operator \(index) is a custom operator without a name")
        }
        guard op.outputs.allSatisfy({ $0 >= 0 }), !op.outputs.isEmpty else {
            throw reader.fail("operator \(index) (\(name)) has no output tensor")
        }
        var options = FlexValue.null
        if !op.customOptions.isEmpty {
            guard op.customOptionsFormat == 0 else {
                throw reader.fail("operator \(index) (\(name)) stores its options in format \(op.customOptionsFormat); only FlexBuffers (0) is defined")
            }
            options = try FlexValue.decode(op.customOptions, file: reader.file, context: "operator \(index) (\(name))'s options")
        }
        return CustomOperator(name: name, version: op.code.version, options: options)
    }

    private func operatorKind(_ known: BuiltinOperator?, op: RawOperator, index: Int, tensors: [RawTensor]) throws -> OperatorKind {
        let options = op.options
        func padding(_ field: Int) throws -> Padding {
            switch try options?.scalar(field, default: UInt8(0)) ?? 0 {
            case 0: return .same
            case 1: return .valid
            case let other: throw reader.fail("operator \(index) has unknown padding \(other)")
            }
        }
        func activation(_ field: Int) throws -> Activation {
            switch try options?.scalar(field, default: UInt8(0)) ?? 0 {
            case 0: return .none
            case 1: return .relu
            case 2: return .reluN1To1
            case 3: return .relu6
            case let other: throw reader.fail("operator \(index) has fused activation \(other), which FaceWorker does not support (none, RELU, RELU_N1_TO_1, RELU6)")
            }
        }
        func int(_ field: Int, _ defaultValue: Int32) throws -> Int {
            Int(try options?.scalar(field, default: defaultValue) ?? defaultValue)
        }
        func requireArity(_ inputs: ClosedRange<Int>, _ name: String) throws {
            guard inputs.contains(op.inputs.count), op.outputs.count == 1, op.outputs[0] >= 0,
                  op.inputs.prefix(2).allSatisfy({ $0 >= 0 }) else {
                throw reader.fail("operator \(index) (\(name)) has \(op.inputs.count) inputs and \(op.outputs.count) outputs")
            }
        }

        switch known {
        case .conv2D:
            try requireArity(2...3, "CONV_2D")
            return .conv2D(ConvolutionOptions(
                padding: try padding(0), strideWidth: try int(1, 1), strideHeight: try int(2, 1),
                dilationWidth: try int(4, 1), dilationHeight: try int(5, 1), activation: try activation(3)))
        case .depthwiseConv2D:
            try requireArity(2...3, "DEPTHWISE_CONV_2D")
            let inputChannels = tensors[op.inputs[0]].shape.last ?? 0
            let outputChannels = tensors[op.outputs[0]].shape.last ?? 0
            guard inputChannels > 0, outputChannels % inputChannels == 0 else {
                throw reader.fail("operator \(index) (DEPTHWISE_CONV_2D) maps \(inputChannels) channels to \(outputChannels)")
            }
            return .depthwiseConv2D(ConvolutionOptions(
                padding: try padding(0), strideWidth: try int(1, 1), strideHeight: try int(2, 1),
                dilationWidth: try int(5, 1), dilationHeight: try int(6, 1), activation: try activation(4)),
                depthMultiplier: outputChannels / inputChannels)
        case .add:
            try requireArity(2...2, "ADD")
            return .add(try activation(0))
        case .relu:
            try requireArity(1...1, "RELU")
            return .relu
        case .prelu:
            try requireArity(2...2, "PRELU")
            return .prelu
        case .maxPool2D:
            try requireArity(1...1, "MAX_POOL_2D")
            return .maxPool2D(PoolOptions(
                padding: try padding(0), strideWidth: try int(1, 1), strideHeight: try int(2, 1),
                filterWidth: try int(3, 1), filterHeight: try int(4, 1), activation: try activation(5)))
        case .pad:
            try requireArity(2...2, "PAD")
            return .pad
        case .reshape:
            try requireArity(1...2, "RESHAPE")
            return .reshape
        case .resizeBilinear:
            try requireArity(2...2, "RESIZE_BILINEAR")
            return .resizeBilinear(alignCorners: try options?.bool(2) ?? false, halfPixelCenters: try options?.bool(3) ?? false)
        case .depthToSpace:
            try requireArity(1...1, "DEPTH_TO_SPACE")
            return .depthToSpace(blockSize: try int(0, 0))
        case .concatenation:
            guard !op.inputs.isEmpty, op.inputs.allSatisfy({ $0 >= 0 }), op.outputs.count == 1, op.outputs[0] >= 0 else {
                throw reader.fail("operator \(index) (CONCATENATION) has \(op.inputs.count) inputs and \(op.outputs.count) outputs")
            }
            return .concatenation(axis: try int(0, 0), activation: try activation(1))
        case .mul:
            try requireArity(2...2, "MUL")
            return .mul(try activation(0))
        case .stridedSlice:
            try requireArity(4...4, "STRIDED_SLICE")
            guard op.inputs[1...].allSatisfy({ $0 >= 0 && tensors[$0].constant?.integers != nil }) else {
                throw reader.fail("operator \(index) (STRIDED_SLICE) needs constant integer begin, end and strides")
            }
            return .stridedSlice(StridedSliceOptions(
                beginMask: try int(0, 0), endMask: try int(1, 0), ellipsisMask: try int(2, 0),
                newAxisMask: try int(3, 0), shrinkAxisMask: try int(4, 0)))
        case .custom:
            return .custom(try customOperator(op, index: index))
        case .dequantize, .densify, nil:
            throw reader.fail("operator \(index) has builtin code \(op.code.builtin), which FaceWorker does not support (supported: \(BuiltinOperator.supportedNames))")
        }
    }
}
