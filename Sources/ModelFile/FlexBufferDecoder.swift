/// The reading side of the FlexBuffers format: the root sits at the end of
/// the blob (its width in the last byte, its packed type before that), and
/// every other value is reached through unsigned offsets pointing backwards.
struct FlexBufferDecoder {
    let bytes: [UInt8]
    let file: String
    let context: String

    private func fail(_ problem: String) -> ModelFileError {
        ModelFileError(file: file, problem: "\(context) \(problem)")
    }

    /// Deeply nested options would be a hostile blob; real ones are one map deep.
    private static let maximumDepth = 16

    /// The byte widths a slot can have.
    private static let widths = [1, 2, 4, 8]

    /// How many values have been decoded. Each value takes at least a byte
    /// where it is stored, so a well-formed blob never has more values than
    /// bytes; only vectors that point at the same children again (each level
    /// multiplying the one above) get there, and decoding them would take
    /// exponential time, which a damaged model file must not cost the worker.
    let decoded = DecodedCount()

    final class DecodedCount {
        var count = 0
    }

    /// A value's slot: where it is stored, the width of that slot, and its
    /// packed type.
    private struct Reference {
        var position: Int
        var parentWidth: Int
        /// The width of what an offset in the slot points to.
        var byteWidth: Int
        var type: Int

        /// A packed type byte holds the type in its upper six bits and the
        /// base-2 logarithm of the byte width in its lower two.
        init(position: Int, parentWidth: Int, packedType: UInt8) {
            self.position = position
            self.parentWidth = parentWidth
            byteWidth = 1 << Int(packedType & 0b11)
            type = Int(packedType >> 2)
        }
    }

    func root() throws -> FlexValue {
        guard bytes.count >= 3 else { throw fail("has \(bytes.count) bytes, too few for a FlexBuffer") }
        let rootWidth = Int(bytes[bytes.count - 1])
        guard Self.widths.contains(rootWidth), bytes.count >= 2 + rootWidth else {
            throw fail("has a FlexBuffer root width of \(rootWidth) bytes")
        }
        return try value(Reference(position: bytes.count - 2 - rootWidth, parentWidth: rootWidth, packedType: bytes[bytes.count - 2]), depth: 0)
    }

    private func unsigned(at position: Int, width: Int) throws -> UInt64 {
        guard position >= 0, width > 0, position + width <= bytes.count else {
            throw fail("reads \(width) bytes at \(position), outside its \(bytes.count)-byte FlexBuffer")
        }
        var value: UInt64 = 0
        for index in (0..<width).reversed() { value = value << 8 | UInt64(bytes[position + index]) }
        return value
    }

    private func signed(at position: Int, width: Int) throws -> Int64 {
        let raw = try unsigned(at: position, width: width)
        let shift = UInt64(64 - 8 * width)
        return Int64(bitPattern: raw << shift) >> Int64(shift)
    }

    private func float(at position: Int, width: Int) throws -> Double {
        switch width {
        case 4: return Double(Float(bitPattern: UInt32(try unsigned(at: position, width: 4))))
        case 8: return Double(bitPattern: try unsigned(at: position, width: 8))
        default: throw fail("has a \(width)-byte float in its FlexBuffer")
        }
    }

    /// The position the offset stored `width` bytes wide at `position` points to.
    private func target(at position: Int, width: Int) throws -> Int {
        let offset = try unsigned(at: position, width: width)
        guard offset <= UInt64(position) else {
            throw fail("has a FlexBuffer offset \(offset) before the start of the blob")
        }
        return position - Int(offset)
    }

    private func string(at position: Int) throws -> String {
        guard let end = bytes[position...].firstIndex(of: 0) else {
            throw fail("has an unterminated string in its FlexBuffer")
        }
        return String(decoding: bytes[position..<end], as: UTF8.self)
    }

    /// A value stored `width` bytes wide at `position` itself, as a scalar is
    /// in its parent's slot and an element in a typed vector.
    private func inline(_ scalar: FlexType.Scalar, at position: Int, width: Int) throws -> FlexValue {
        switch scalar {
        case .int: return .int(try signed(at: position, width: width))
        case .uint: return .uint(try unsigned(at: position, width: width))
        case .float: return .float(try float(at: position, width: width))
        case .bool: return .bool(try unsigned(at: position, width: width) != 0)
        case .key: return .string(try string(at: try target(at: position, width: width)))
        }
    }

    private func value(_ reference: Reference, depth: Int) throws -> FlexValue {
        guard depth < Self.maximumDepth else { throw fail("nests its FlexBuffer deeper than \(Self.maximumDepth) levels") }
        decoded.count += 1
        guard decoded.count <= bytes.count else {
            throw fail("has more FlexBuffer values than its \(bytes.count) bytes can hold: its vectors share their elements")
        }
        guard let type = FlexType(rawValue: reference.type) else {
            throw fail("has a FlexBuffer value of type \(reference.type), which custom options never hold")
        }
        let width = reference.byteWidth
        func pointee() throws -> Int { try target(at: reference.position, width: reference.parentWidth) }
        switch type.layout {
        case .null:
            return .null
        case .inline(let scalar):
            return try inline(scalar, at: reference.position, width: reference.parentWidth)
        case .indirect(let scalar):
            return try inline(scalar, at: try pointee(), width: width)
        case .string:
            let start = try pointee()
            // An 8-byte length may not fit an Int at all.
            guard let length = Int(exactly: try unsigned(at: start - width, width: width)), length <= bytes.count - start else {
                throw fail("has a FlexBuffer string longer than the blob")
            }
            return .string(String(decoding: bytes[start..<start + length], as: UTF8.self))
        case .map:
            return try map(at: try pointee(), width: width, depth: depth)
        case .vector:
            return .vector(try untypedVector(at: try pointee(), width: width, depth: depth))
        case .typedVector(let scalar):
            let start = try pointee()
            return .vector(try typedElements(scalar, at: start, count: try elementCount(at: start, width: width), width: width))
        case .fixedVector(let scalar, let count):
            return .vector(try typedElements(scalar, at: try pointee(), count: count, width: width))
        }
    }

    private func elementCount(at start: Int, width: Int) throws -> Int {
        let count = try unsigned(at: start - width, width: width)
        guard count <= UInt64(bytes.count) else { throw fail("has a FlexBuffer vector of \(count) elements, more than the blob holds") }
        return Int(count)
    }

    private func typedElements(_ scalar: FlexType.Scalar, at start: Int, count: Int, width: Int) throws -> [FlexValue] {
        try (0..<count).map { index in try inline(scalar, at: start + index * width, width: width) }
    }

    /// An untyped vector: `count` slots, then one packed type byte per slot.
    private func untypedVector(at start: Int, width: Int, depth: Int) throws -> [FlexValue] {
        let count = try elementCount(at: start, width: width)
        let types = start + count * width
        guard types >= start, types + count <= bytes.count else { throw fail("has a FlexBuffer vector that runs past the blob") }
        return try (0..<count).map { index in
            try value(Reference(position: start + index * width, parentWidth: width, packedType: bytes[types + index]), depth: depth + 1)
        }
    }

    /// A map: an untyped vector of values preceded by its sorted keys' vector
    /// (offset and width stored in the two slots before the count).
    private func map(at start: Int, width: Int, depth: Int) throws -> FlexValue {
        let values = try untypedVector(at: start, width: width, depth: depth)
        let storedKeysWidth = try unsigned(at: start - 2 * width, width: width)
        guard let keysWidth = Int(exactly: storedKeysWidth), Self.widths.contains(keysWidth) else {
            throw fail("has a FlexBuffer map whose keys are \(storedKeysWidth) bytes wide")
        }
        let keysStart = try target(at: start - 3 * width, width: width)
        let keys = try typedElements(.key, at: keysStart, count: try elementCount(at: keysStart, width: keysWidth), width: keysWidth)
        guard keys.count == values.count else {
            throw fail("has a FlexBuffer map of \(keys.count) keys and \(values.count) values")
        }
        var entries: [String: FlexValue] = [:]
        for (key, value) in zip(keys, values) {
            guard case .string(let name) = key else { continue }
            entries[name] = value
        }
        return .map(entries)
    }
}

/// FlexBuffers' value types, numbered as the format numbers them; the ones
/// custom options never hold (blobs, the deprecated string vector) are left out.
private enum FlexType: Int {
    case null = 0
    case int = 1
    case uint = 2
    case float = 3
    case key = 4
    case string = 5
    case indirectInt = 6
    case indirectUInt = 7
    case indirectFloat = 8
    case map = 9
    case vector = 10
    case vectorInt = 11
    case vectorUInt = 12
    case vectorFloat = 13
    case vectorKey = 14
    case vectorInt2 = 16
    case vectorUInt2 = 17
    case vectorFloat2 = 18
    case vectorInt3 = 19
    case vectorUInt3 = 20
    case vectorFloat3 = 21
    case vectorInt4 = 22
    case vectorUInt4 = 23
    case vectorFloat4 = 24
    case bool = 26
    case vectorBool = 36

    /// What can be stored in a slot or typed-vector element of its own width.
    enum Scalar {
        case int, uint, float, bool
        /// An offset to a NUL-terminated string.
        case key
    }

    /// Where a value of this type is and how it is laid out.
    enum Layout {
        case null
        /// In the parent's slot.
        case inline(Scalar)
        /// Behind an offset in the parent's slot, in the packed type's byte width.
        case indirect(Scalar)
        /// Behind an offset: bytes preceded by their count.
        case string
        case map
        /// Behind an offset: slots preceded by their count and followed by their packed types.
        case vector
        /// Behind an offset: elements of one type preceded by their count.
        case typedVector(Scalar)
        /// Behind an offset: `count` elements of one type, no count stored.
        case fixedVector(Scalar, count: Int)
    }

    var layout: Layout {
        switch self {
        case .null: .null
        case .int: .inline(.int)
        case .uint: .inline(.uint)
        case .float: .inline(.float)
        case .bool: .inline(.bool)
        case .key: .inline(.key)
        case .indirectInt: .indirect(.int)
        case .indirectUInt: .indirect(.uint)
        case .indirectFloat: .indirect(.float)
        case .string: .string
        case .map: .map
        case .vector: .vector
        case .vectorInt: .typedVector(.int)
        case .vectorUInt: .typedVector(.uint)
        case .vectorFloat: .typedVector(.float)
        case .vectorKey: .typedVector(.key)
        case .vectorBool: .typedVector(.bool)
        case .vectorInt2: .fixedVector(.int, count: 2)
        case .vectorUInt2: .fixedVector(.uint, count: 2)
        case .vectorFloat2: .fixedVector(.float, count: 2)
        case .vectorInt3: .fixedVector(.int, count: 3)
        case .vectorUInt3: .fixedVector(.uint, count: 3)
        case .vectorFloat3: .fixedVector(.float, count: 3)
        case .vectorInt4: .fixedVector(.int, count: 4)
        case .vectorUInt4: .fixedVector(.uint, count: 4)
        case .vectorFloat4: .fixedVector(.float, count: 4)
        }
    }
}
