/// One numeric option's contract: the name the wire gives it, its default
/// and the values allowed. The values come from the conformance file
/// (`FaceOptions.Specs`), so the worker and every client agree on them.
package struct OptionSpec<Value: Comparable & Sendable>: Sendable {
    /// The option's name in faceworker.proto, used in every error about it.
    package let field: String
    /// The value an unset option takes.
    package let defaultValue: Value
    /// The values accepted.
    package let range: ClosedRange<Value>

    /// A spec; made by the generated `FaceOptions.Specs`.
    package init(field: String, defaultValue: Value, range: ClosedRange<Value>) {
        self.field = field
        self.defaultValue = defaultValue
        self.range = range
    }

    /// `value`, or an error naming the field and the range. A NaN is never in range.
    package func check(_ value: Value) throws(FaceError) -> Value {
        guard range.contains(value) else {
            throw .invalidArgument("\(field) must be between \(Self.text(range.lowerBound)) and \(Self.text(range.upperBound)), got \(value)")
        }
        return value
    }

    /// A bound as people write it: 0 and 1 rather than 0.0 and 1.0.
    private static func text(_ bound: Value) -> String {
        if let float = bound as? Float, float == float.rounded() { return String(Int(float)) }
        return "\(bound)"
    }
}
