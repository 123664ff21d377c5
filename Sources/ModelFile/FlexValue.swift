/// A value decoded from a FlexBuffer, the schemaless format TFLite uses for a
/// custom operator's options.
///
/// Only what option blobs hold is decoded: scalars, strings, maps and vectors
/// of those. Every offset is checked against the blob, so a damaged blob is a
/// thrown error, never an out-of-bounds read.
package enum FlexValue: Sendable, Equatable {
    case null
    case int(Int64)
    case uint(UInt64)
    case float(Double)
    case bool(Bool)
    case string(String)
    case vector([FlexValue])
    case map([String: FlexValue])

    /// The value as an integer, when it is one (or a float with no fraction).
    package var integer: Int? {
        switch self {
        case .int(let value): return Int(exactly: value)
        case .uint(let value): return Int(exactly: value)
        case .float(let value): return Int(exactly: value)
        case .bool(let value): return value ? 1 : 0
        default: return nil
        }
    }

    /// The value as a float, when it is a number.
    package var number: Double? {
        switch self {
        case .int(let value): return Double(value)
        case .uint(let value): return Double(value)
        case .float(let value): return value
        default: return nil
        }
    }

    /// The elements, when the value is a vector.
    package var elements: [FlexValue]? {
        if case .vector(let values) = self { return values }
        return nil
    }

    /// Decodes a whole FlexBuffer blob; errors name `file` and begin with `context`.
    static func decode(_ bytes: ArraySlice<UInt8>, file: String, context: String) throws -> FlexValue {
        try FlexBufferDecoder(bytes: Array(bytes), file: file, context: context).root()
    }
}
