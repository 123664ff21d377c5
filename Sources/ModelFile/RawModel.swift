/// The file as stored, before folding: the main subgraph's tensors (constant
/// data decoded) and operators, every index checked.
struct RawModel {
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
        /// The operator's own table, for its builtin options: which options
        /// table they are depends on the operator, so they are read where it is known.
        var table: FlatBufferReader.Table<OperatorSlot>
        /// The FlexBuffer blob of a custom operator (empty when it has none).
        var customOptions: ArraySlice<UInt8>
        var customOptionsFormat: Int8

        /// The builtin options, read as an `Options` table; nil when the file stores none.
        func builtinOptions<Options: FlatBufferField>(_: Options.Type) throws -> FlatBufferReader.Table<Options>? {
            try table.table(.builtinOptions, of: Options.self)
        }
    }

    /// An entry of the file's operator code table.
    struct OperatorCode {
        var builtin: Int32
        var customName: String?
        var version: Int

        /// The builtin code of `table`: the file keeps it in
        /// `deprecated_builtin_code` for codes below 127 and in `builtin_code`
        /// above, so the larger of the two is the real one.
        static func builtin(of table: FlatBufferReader.Table<OperatorCodeSlot>) throws -> Int32 {
            let deprecated = Int32(try table.scalar(.deprecatedBuiltinCode, default: Int8(0)))
            return max(deprecated, try table.scalar(.builtinCode, default: Int32(0)))
        }
    }

    let reader: FlatBufferReader
    var tensors: [RawTensor] = []
    var operators: [RawOperator] = []
    var inputs: [Int] = []
    var outputs: [Int] = []

    init(reader: FlatBufferReader) throws {
        self.reader = reader
        let root = try reader.rootTable(of: ModelSlot.self)
        let codes = try root.tables(.operatorCodes, of: OperatorCodeSlot.self).map { code in
            OperatorCode(builtin: try OperatorCode.builtin(of: code),
                         customName: try code.string(.customCode),
                         version: Int(try code.scalar(.version, default: Int32(1))))
        }
        let buffers = try root.tables(.buffers, of: BufferSlot.self)
        let subgraphs = try root.tables(.subgraphs, of: SubGraphSlot.self)
        guard let main = subgraphs.first else { throw reader.fail("has no subgraph") }

        for (index, table) in try main.tables(.tensors, of: TensorSlot.self).enumerated() {
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
        inputs = try indices(try main.scalars(.inputs, as: Int32.self), "the subgraph's input list")
        outputs = try indices(try main.scalars(.outputs, as: Int32.self), "the subgraph's output list")
        for (index, table) in try main.tables(.operators, of: OperatorSlot.self).enumerated() {
            let opcodeIndex = Int(try table.scalar(.opcodeIndex, default: UInt32(0)))
            guard opcodeIndex < codes.count else {
                throw reader.fail("operator \(index) uses operator code \(opcodeIndex), but the file lists \(codes.count)")
            }
            operators.append(RawOperator(
                code: codes[opcodeIndex],
                inputs: try indices(try table.scalars(.inputs, as: Int32.self), "operator \(index)'s inputs"),
                outputs: try indices(try table.scalars(.outputs, as: Int32.self), "operator \(index)'s outputs"),
                table: table,
                customOptions: try table.vector(.customOptions)?.byteSlice() ?? [],
                customOptionsFormat: try table.scalar(.customOptionsFormat, default: CustomOptionsFormat.flexBuffers.rawValue)
            ))
        }
    }

    private static func tensor(_ table: FlatBufferReader.Table<TensorSlot>, index: Int, buffers: [FlatBufferReader.Table<BufferSlot>],
                               reader: FlatBufferReader) throws -> RawTensor {
        let name = try table.string(.name) ?? "tensor \(index)"
        let shape = try table.scalars(.shape, as: Int32.self).map(Int.init)
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
        let type = TensorType(code: try table.scalar(.type, default: UInt8(0)))
        let sparsity = try table.table(.sparsity, of: SparsityParametersSlot.self).map { try Self.sparsity($0, reader: reader) }

        var constant: ConstantValues?
        // Buffer 0 is the schema's always-empty sentinel, the buffer of every non-constant tensor.
        let bufferIndex = Int(try table.scalar(.buffer, default: UInt32(0)))
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

    private static func bufferBytes(_ buffer: FlatBufferReader.Table<BufferSlot>, reader: FlatBufferReader) throws -> ArraySlice<UInt8> {
        // Large models keep data after the flatbuffer, addressed by offset and size.
        let offset = try buffer.scalar(.offset, default: UInt64(0))
        if offset > 1 {
            let size = try buffer.scalar(.size, default: UInt64(0))
            guard offset <= UInt64(reader.bytes.count), size <= UInt64(reader.bytes.count) - offset else {
                throw reader.fail("a buffer at offset \(offset) of \(size) bytes lies outside the file of \(reader.bytes.count) bytes")
            }
            return reader.bytes[Int(offset)..<Int(offset + size)]
        }
        return try buffer.vector(.data)?.byteSlice() ?? []
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
        // Element by element through a raw pointer: a debug build runs this for every weight of
        // every model at each start, and indexing the slice cost seconds there.
        return bytes.withUnsafeBytes { raw in
            func elements<Element>(_ element: (Int) -> Element) -> [Element] {
                Array(unsafeUninitializedCapacity: count) { values, initialized in
                    for i in 0..<count { values[i] = element(i) }
                    initialized = count
                }
            }
            func word(_ i: Int) -> UInt32 { UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self)) }
            switch type {
            case .float32:
                return .stableFloats(StableFloats(count: count) { Float(bitPattern: word($0)) })
            case .float16:
                return .stableFloats(StableFloats(count: count) {
                    floatFromHalf(UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: 2 * $0, as: UInt16.self)))
                })
            default:
                return .int32(elements { Int32(bitPattern: word($0)) })
            }
        }
    }

    private static func sparsity(_ table: FlatBufferReader.Table<SparsityParametersSlot>, reader: FlatBufferReader) throws -> SparsityParameters {
        let levels = try table.tables(.dimMetadata, of: DimensionMetadataSlot.self).map { level -> SparsityParameters.Level in
            let format = try level.scalar(.format, default: DimensionType.dense.rawValue)
            switch DimensionType(rawValue: format) {
            case .dense:
                return .dense(size: Int(try level.scalar(.denseSize, default: Int32(0))))
            case .sparseCSR:
                return .sparse(
                    segments: try Self.indexVector(level, type: .arraySegmentsType, value: .arraySegments, reader: reader),
                    indices: try Self.indexVector(level, type: .arrayIndicesType, value: .arrayIndices, reader: reader)
                )
            case nil:
                throw reader.fail("a sparse dimension has format \(format), expected 0 (DENSE) or 1 (SPARSE_CSR)")
            }
        }
        return SparsityParameters(
            traversalOrder: try table.scalars(.traversalOrder, as: Int32.self).map(Int.init),
            blockMap: try table.scalars(.blockMap, as: Int32.self).map(Int.init),
            levels: levels
        )
    }

    /// Reads a `SparseIndexVector` union: its type byte in `type`, its table in `value`.
    private static func indexVector(_ level: FlatBufferReader.Table<DimensionMetadataSlot>, type: DimensionMetadataSlot, value: DimensionMetadataSlot,
                                    reader: FlatBufferReader) throws -> [Int] {
        let code = try level.scalar(type, default: UInt8(0))
        guard let vector = try level.table(value, of: IndexVectorSlot.self) else {
            throw reader.fail("a sparse dimension lacks its index vector")
        }
        switch SparseIndexVectorType(rawValue: code) {
        case .int32Vector: return try vector.scalars(.values, as: Int32.self).map(Int.init)
        case .uint16Vector: return try vector.scalars(.values, as: UInt16.self).map(Int.init)
        case .uint8Vector: return try vector.scalars(.values, as: UInt8.self).map(Int.init)
        case nil: throw reader.fail("a sparse dimension has index vector type \(code), expected 1 (Int32Vector), 2 (Uint16Vector) or 3 (Uint8Vector)")
        }
    }
}
