/// The rule for the name a shared session is opened with: 1 to 128 bytes of
/// UTF-8 without control characters, so that it can be logged, typed and
/// compared byte for byte by every client.
enum SessionName {
    /// The longest name, in bytes of UTF-8.
    static let maxBytes = 128

    /// Checks `name` against the rule.
    ///
    /// - Throws: INVALID_ARGUMENT naming the rule that was broken.
    static func validate(_ name: String) throws(CallError) {
        let rule = "a session name is 1 to \(maxBytes) bytes of UTF-8 without control characters"
        let bytes = name.utf8.count
        guard bytes > 0 else {
            throw CallError(.invalidArgument, "the session name is empty; \(rule) (leave it unset for a private session)")
        }
        guard bytes <= maxBytes else {
            throw CallError(.invalidArgument, "the session name is \(bytes) bytes long; \(rule)")
        }
        if let control = name.unicodeScalars.first(where: { $0.properties.generalCategory == .control }) {
            let code = String(control.value, radix: 16, uppercase: true)
            throw CallError(.invalidArgument, "the session name holds the control character U+\(String(repeating: "0", count: max(0, 4 - code.count)))\(code); \(rule)")
        }
    }
}
