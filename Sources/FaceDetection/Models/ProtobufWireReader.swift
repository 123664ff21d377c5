/// Reads protocol buffer wire format: just enough to take one small message
/// apart field by field, without generated code or a protobuf library.
///
/// Field numbers and wire types come from the message's `.proto`; the caller
/// decides what each field means. Every read is bounds-checked, and a
/// malformed message throws a description of where it went wrong.
struct ProtobufWireReader {
    /// One field's value as the wire carries it.
    enum Value {
        case varint(UInt64)
        case fixed32(UInt32)
        case fixed64(UInt64)
        case bytes(ArraySlice<UInt8>)
    }

    private let bytes: ArraySlice<UInt8>
    private var position: Int

    /// A reader over a whole message.
    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        position = bytes.startIndex
    }

    /// The next field's number and value, or nil at the end of the message.
    mutating func next() throws(ProtobufWireError) -> (field: Int, value: Value)? {
        guard position < bytes.endIndex else { return nil }
        let key = try varint()
        let field = Int(key >> 3)
        guard field > 0 else { throw ProtobufWireError("field number 0 at byte \(position)") }
        switch key & 7 {
        case 0: return (field, .varint(try varint()))
        case 1: return (field, .fixed64(try fixed(8)))
        case 2:
            let length = try varint()
            guard length <= UInt64(bytes.endIndex - position) else {
                throw ProtobufWireError("field \(field) claims \(length) bytes, \(bytes.endIndex - position) remain")
            }
            let value = bytes[position..<position + Int(length)]
            position += Int(length)
            return (field, .bytes(value))
        case 5: return (field, .fixed32(UInt32(try fixed(4))))
        default: throw ProtobufWireError("field \(field) has unsupported wire type \(key & 7)")
        }
    }

    private mutating func varint() throws(ProtobufWireError) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while position < bytes.endIndex, shift < 64 {
            let byte = bytes[position]
            position += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
        throw ProtobufWireError("varint cut short or too long at byte \(position)")
    }

    private mutating func fixed(_ count: Int) throws(ProtobufWireError) -> UInt64 {
        guard bytes.endIndex - position >= count else { throw ProtobufWireError("fixed-width value cut short at byte \(position)") }
        var value: UInt64 = 0
        for index in 0..<count {
            value |= UInt64(bytes[position + index]) << (8 * UInt64(index))
        }
        position += count
        return value
    }
}

/// Why a protocol buffer message could not be read.
struct ProtobufWireError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}

extension ProtobufWireReader.Value {
    /// The values of a repeated 32-bit field, packed or not: a packed field is
    /// one length-delimited run, an unpacked one repeats the field.
    func fixed32s() -> [UInt32]? {
        switch self {
        case .fixed32(let value): return [value]
        case .bytes(let run) where run.count % 4 == 0:
            return stride(from: run.startIndex, to: run.endIndex, by: 4).map { start in
                (0..<4).reduce(UInt32(0)) { $0 | UInt32(run[start + $1]) << (8 * UInt32($1)) }
            }
        default: return nil
        }
    }
}
