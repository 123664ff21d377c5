/// A field of one FlatBuffers table type, named as the schema names it.
///
/// The raw value is the field's slot: its index among the table's fields in
/// declaration order, which is its entry in the table's vtable.
protocol FlatBufferField: RawRepresentable where RawValue == Int {}

/// A bounds-checked reader over the FlatBuffers binary format, for the subset
/// of features the TFLite schema uses: tables with vtables, vectors of scalars,
/// vectors of tables, strings, and unions stored as (type, table) pairs.
///
/// Every access checks its offsets against the buffer, so a truncated or
/// hostile file is a thrown error and never an out-of-bounds read. A table is
/// typed by its fields, so a field can only be read from its own table type.
struct FlatBufferReader {
    /// A vtable starts with two 16-bit sizes, its own and its table's, before
    /// the 16-bit field offsets.
    private static let vtableHeaderSize = 4

    let bytes: [UInt8]
    let file: String

    init(bytes: [UInt8], file: String) {
        self.bytes = bytes
        self.file = file
    }

    func fail(_ problem: String) -> ModelFileError {
        ModelFileError(file: file, problem: problem)
    }

    /// Checks that `count` bytes starting at `offset` lie inside the buffer.
    func checkRange(_ offset: Int, _ count: Int, _ what: @autoclosure () -> String) throws {
        guard offset >= 0, count >= 0, offset <= bytes.count, count <= bytes.count - offset else {
            throw fail("\(what()) at byte \(offset) (\(count) bytes) lies outside the file of \(bytes.count) bytes")
        }
    }

    func load<T: FixedWidthInteger>(_: T.Type, at offset: Int) throws -> T {
        try checkRange(offset, MemoryLayout<T>.size, "a \(T.self)")
        var value: T = 0
        withUnsafeMutableBytes(of: &value) { dst in
            for i in 0..<MemoryLayout<T>.size { dst[i] = bytes[offset + i] }
        }
        return T(littleEndian: value)
    }

    /// The root table: a uint32 offset at the start of the buffer.
    func rootTable<Field: FlatBufferField>(of _: Field.Type) throws -> Table<Field> {
        let offset = Int(try load(UInt32.self, at: 0))
        return try table(at: offset, of: Field.self)
    }

    func table<Field: FlatBufferField>(at offset: Int, of _: Field.Type) throws -> Table<Field> {
        let vtableOffset = offset - Int(try load(Int32.self, at: offset))
        let vtableSize = Int(try load(UInt16.self, at: vtableOffset))
        guard vtableSize >= Self.vtableHeaderSize, vtableSize % 2 == 0 else {
            throw fail("a table at byte \(offset) has a malformed vtable (size \(vtableSize))")
        }
        try checkRange(vtableOffset, vtableSize, "a vtable")
        return Table(reader: self, offset: offset, vtableOffset: vtableOffset, vtableSize: vtableSize)
    }

    /// A table: a position in the buffer plus its vtable, which maps field
    /// slots to offsets (0 meaning the field is absent and takes its default).
    struct Table<Field: FlatBufferField> {
        let reader: FlatBufferReader
        let offset: Int
        let vtableOffset: Int
        let vtableSize: Int

        /// Absolute position of `field`, or nil when absent.
        func fieldPosition(_ field: Field) throws -> Int? {
            let entry = FlatBufferReader.vtableHeaderSize + 2 * field.rawValue
            guard entry + 2 <= vtableSize else { return nil }
            let relative = Int(try reader.load(UInt16.self, at: vtableOffset + entry))
            return relative == 0 ? nil : offset + relative
        }

        func scalar<T: FixedWidthInteger>(_ field: Field, default defaultValue: T) throws -> T {
            guard let position = try fieldPosition(field) else { return defaultValue }
            return try reader.load(T.self, at: position)
        }

        func bool(_ field: Field) throws -> Bool {
            try scalar(field, default: UInt8(0)) != 0
        }

        /// Follows a uoffset stored in `field`.
        private func indirect(_ field: Field) throws -> Int? {
            guard let position = try fieldPosition(field) else { return nil }
            return position + Int(try reader.load(UInt32.self, at: position))
        }

        /// The table `field` points to, read as a `Child` table: the schema's
        /// type of the field, or for a union the member its type byte names.
        func table<Child: FlatBufferField>(_ field: Field, of _: Child.Type) throws -> Table<Child>? {
            guard let target = try indirect(field) else { return nil }
            return try reader.table(at: target, of: Child.self)
        }

        func string(_ field: Field) throws -> String? {
            guard let vector = try vector(field) else { return nil }
            try reader.checkRange(vector.start, vector.count, "a string")
            return String(decoding: reader.bytes[vector.start..<vector.start + vector.count], as: UTF8.self)
        }

        func vector(_ field: Field) throws -> Vector? {
            guard let target = try indirect(field) else { return nil }
            let count = Int(try reader.load(UInt32.self, at: target))
            return Vector(reader: reader, start: target + MemoryLayout<UInt32>.size, count: count)
        }

        func scalars<T: FixedWidthInteger>(_ field: Field, as type: T.Type) throws -> [T] {
            guard let vector = try vector(field) else { return [] }
            return try vector.scalars(T.self)
        }

        func tables<Child: FlatBufferField>(_ field: Field, of _: Child.Type) throws -> [Table<Child>] {
            guard let vector = try vector(field) else { return [] }
            return try vector.tables(of: Child.self)
        }
    }

    /// A vector: a length-prefixed run of elements.
    struct Vector {
        let reader: FlatBufferReader
        let start: Int
        let count: Int

        func scalars<T: FixedWidthInteger>(_: T.Type) throws -> [T] {
            let size = MemoryLayout<T>.size
            let (total, overflow) = count.multipliedReportingOverflow(by: size)
            guard !overflow else { throw reader.fail("a vector of \(count) elements is impossibly long") }
            try reader.checkRange(start, total, "a vector of \(count) \(T.self)")
            return try (0..<count).map { try reader.load(T.self, at: start + $0 * size) }
        }

        /// The raw bytes of a byte vector, without copying element by element.
        func byteSlice() throws -> ArraySlice<UInt8> {
            try reader.checkRange(start, count, "a byte vector")
            return reader.bytes[start..<start + count]
        }

        func tables<Field: FlatBufferField>(of _: Field.Type) throws -> [Table<Field>] {
            let (total, overflow) = count.multipliedReportingOverflow(by: 4)
            guard !overflow else { throw reader.fail("a vector of \(count) tables is impossibly long") }
            try reader.checkRange(start, total, "a vector of \(count) tables")
            return try (0..<count).map { i in
                let position = start + 4 * i
                return try reader.table(at: position + Int(try reader.load(UInt32.self, at: position)), of: Field.self)
            }
        }
    }
}
