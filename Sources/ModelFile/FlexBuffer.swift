/// A value decoded from a FlexBuffer, the schemaless format TFLite uses for a
/// custom operator's options.
///
/// Only what option blobs hold is decoded: scalars, strings, maps and vectors
/// of those. Every offset is checked against the blob, so a damaged blob is a
/// thrown error, never an out-of-bounds read.
public enum FlexValue: Sendable, Equatable {
    case null
    case int(Int64)
    case uint(UInt64)
    case float(Double)
    case bool(Bool)
    case string(String)
    case vector([FlexValue])
    case map([String: FlexValue])

    /// The value as an integer, when it is one (or a float with no fraction).
    public var integer: Int? {
        switch self {
        case .int(let value): return Int(exactly: value)
        case .uint(let value): return Int(exactly: value)
        case .float(let value): return Int(exactly: value)
        case .bool(let value): return value ? 1 : 0
        default: return nil
        }
    }

    /// The value as a float, when it is a number.
    public var number: Double? {
        switch self {
        case .int(let value): return Double(value)
        case .uint(let value): return Double(value)
        case .float(let value): return value
        default: return nil
        }
    }

    /// The elements, when the value is a vector.
    public var elements: [FlexValue]? {
        if case .vector(let values) = self { return values }
        return nil
    }

    /// Decodes a whole FlexBuffer blob; errors name `file` and begin with `context`.
    static func decode(_ bytes: ArraySlice<UInt8>, file: String, context: String) throws -> FlexValue {
        try FlexBufferDecoder(bytes: Array(bytes), file: file, context: context).root()
    }
}

/// The reading side of the FlexBuffers format: the root sits at the end of
/// the blob (its width in the last byte, its packed type before that), and
/// every other value is reached through unsigned offsets pointing backwards.
private struct FlexBufferDecoder {
    let bytes: [UInt8]
    let file: String
    let context: String

    private func fail(_ problem: String) -> ModelFileError {
        ModelFileError(file: file, problem: "\(context) \(problem)")
    }

    /// Deeply nested options would be a hostile blob; real ones are one map deep.
    private static let maximumDepth = 16

    /// A value's slot: where it is stored, the width of that slot, and its packed type.
    private struct Reference {
        var position: Int
        var parentWidth: Int
        var byteWidth: Int
        var type: Int
    }

    func root() throws -> FlexValue {
        guard bytes.count >= 3 else { throw fail("has \(bytes.count) bytes, too few for a FlexBuffer") }
        let rootWidth = Int(bytes[bytes.count - 1])
        guard [1, 2, 4, 8].contains(rootWidth), bytes.count >= 2 + rootWidth else {
            throw fail("has a FlexBuffer root width of \(rootWidth) bytes")
        }
        let packed = Int(bytes[bytes.count - 2])
        return try value(Reference(position: bytes.count - 2 - rootWidth, parentWidth: rootWidth,
                                   byteWidth: 1 << (packed & 3), type: packed >> 2), depth: 0)
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

    /// The position an offset slot points to.
    private func target(of reference: Reference) throws -> Int {
        let offset = try unsigned(at: reference.position, width: reference.parentWidth)
        guard offset <= UInt64(reference.position) else {
            throw fail("has a FlexBuffer offset \(offset) before the start of the blob")
        }
        return reference.position - Int(offset)
    }

    private func string(at position: Int) throws -> String {
        guard let end = bytes[position...].firstIndex(of: 0) else {
            throw fail("has an unterminated string in its FlexBuffer")
        }
        return String(decoding: bytes[position..<end], as: UTF8.self)
    }

    private func value(_ reference: Reference, depth: Int) throws -> FlexValue {
        guard depth < Self.maximumDepth else { throw fail("nests its FlexBuffer deeper than \(Self.maximumDepth) levels") }
        let width = reference.parentWidth
        switch reference.type {
        case 0: return .null
        case 1: return .int(try signed(at: reference.position, width: width))
        case 2: return .uint(try unsigned(at: reference.position, width: width))
        case 3: return .float(try float(at: reference.position, width: width))
        case 26: return .bool(try unsigned(at: reference.position, width: width) != 0)
        case 6: return .int(try signed(at: try target(of: reference), width: reference.byteWidth))
        case 7: return .uint(try unsigned(at: try target(of: reference), width: reference.byteWidth))
        case 8: return .float(try float(at: try target(of: reference), width: reference.byteWidth))
        case 4: return .string(try string(at: try target(of: reference)))
        case 5:
            let start = try target(of: reference)
            let length = Int(try unsigned(at: start - reference.byteWidth, width: reference.byteWidth))
            guard length <= bytes.count - start else { throw fail("has a FlexBuffer string longer than the blob") }
            return .string(String(decoding: bytes[start..<start + length], as: UTF8.self))
        case 9: return try map(reference, depth: depth)
        case 10: return .vector(try untypedVector(at: try target(of: reference), width: reference.byteWidth, depth: depth))
        case 11, 12, 13, 14, 36:
            let start = try target(of: reference)
            let count = try elementCount(at: start, width: reference.byteWidth)
            return .vector(try typedElements(at: start, count: count, width: reference.byteWidth, vectorType: reference.type))
        case 16...24:
            // Fixed-length typed vectors (2, 3 or 4 ints, uints or floats) carry no count.
            let count = (reference.type - 16) / 3 + 2
            let elementType = [11, 12, 13][(reference.type - 16) % 3]
            return .vector(try typedElements(at: try target(of: reference), count: count, width: reference.byteWidth, vectorType: elementType))
        default:
            throw fail("has a FlexBuffer value of type \(reference.type), which custom options never hold")
        }
    }

    private func elementCount(at start: Int, width: Int) throws -> Int {
        let count = try unsigned(at: start - width, width: width)
        guard count <= UInt64(bytes.count) else { throw fail("has a FlexBuffer vector of \(count) elements, more than the blob holds") }
        return Int(count)
    }

    private func typedElements(at start: Int, count: Int, width: Int, vectorType: Int) throws -> [FlexValue] {
        try (0..<count).map { index -> FlexValue in
            let position = start + index * width
            switch vectorType {
            case 11: return .int(try signed(at: position, width: width))
            case 12: return .uint(try unsigned(at: position, width: width))
            case 13: return .float(try float(at: position, width: width))
            case 36: return .bool(try unsigned(at: position, width: width) != 0)
            default: return .string(try string(at: try target(of: Reference(position: position, parentWidth: width, byteWidth: 1, type: 4))))
            }
        }
    }

    /// An untyped vector: `count` slots, then one packed type byte per slot.
    private func untypedVector(at start: Int, width: Int, depth: Int) throws -> [FlexValue] {
        let count = try elementCount(at: start, width: width)
        let types = start + count * width
        guard types >= start, types + count <= bytes.count else { throw fail("has a FlexBuffer vector that runs past the blob") }
        return try (0..<count).map { index in
            let packed = Int(bytes[types + index])
            return try value(Reference(position: start + index * width, parentWidth: width,
                                       byteWidth: 1 << (packed & 3), type: packed >> 2), depth: depth + 1)
        }
    }

    /// A map: an untyped vector of values preceded by its sorted keys' vector
    /// (offset and width stored in the two slots before the count).
    private func map(_ reference: Reference, depth: Int) throws -> FlexValue {
        let start = try target(of: reference)
        let width = reference.byteWidth
        let values = try untypedVector(at: start, width: width, depth: depth)
        let keysSlot = start - 3 * width
        let keysWidth = Int(try unsigned(at: start - 2 * width, width: width))
        guard [1, 2, 4, 8].contains(keysWidth) else { throw fail("has a FlexBuffer map whose keys are \(keysWidth) bytes wide") }
        let keysStart = try target(of: Reference(position: keysSlot, parentWidth: width, byteWidth: keysWidth, type: 14))
        let keys = try typedElements(at: keysStart, count: try elementCount(at: keysStart, width: keysWidth), width: keysWidth, vectorType: 14)
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
