import Foundation
import Logging

/// Writes each log record to standard error as one JSON object on one line,
/// for log collectors: the fields of the text format (`timestamp`, `level`,
/// `label`, `source`, `message`) and each metadata key at the top level,
/// metadata values keeping their shape (strings, arrays, objects).
struct JSONLogHandler: LogHandler {
    /// The logger's label.
    let label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { _, new in new } }
        if let own = event.metadata { merged.merge(own) { _, new in new } }
        var line = "{\"timestamp\":\(Self.quoted(Self.timestamp()))"
        line += ",\"level\":\(Self.quoted(event.level.rawValue))"
        line += ",\"label\":\(Self.quoted(label))"
        line += ",\"source\":\(Self.quoted(event.source))"
        line += ",\"message\":\(Self.quoted(event.message.description))"
        for (key, value) in merged.sorted(by: { $0.key < $1.key }) where !Self.reserved.contains(key) {
            line += ",\(Self.quoted(key)):\(Self.json(value))"
        }
        line += "}\n"
        // One write per record, so records from different threads do not mix
        // within a line (stderr is unbuffered; a pipe takes up to 4 KiB whole).
        var bytes = Array(line.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer in
                Foundation.write(STDERR_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }

    /// Keys the record's own fields use; metadata of the same name would hide them.
    private static let reserved: Set<String> = ["timestamp", "level", "label", "source", "message"]

    private static func json(_ value: Logger.Metadata.Value) -> String {
        switch value {
        case .string(let string): quoted(string)
        case .stringConvertible(let convertible): quoted(convertible.description)
        case .array(let values): "[" + values.map(json).joined(separator: ",") + "]"
        case .dictionary(let entries):
            "{" + entries.sorted(by: { $0.key < $1.key }).map { "\(quoted($0.key)):\(json($0.value))" }.joined(separator: ",") + "}"
        }
    }

    /// A JSON string literal: quotes, backslashes and control characters escaped.
    static func quoted(_ string: String) -> String {
        var out = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                out += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// UTC, to the millisecond, in ISO 8601.
    private static func timestamp() -> String {
        Date().formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}
