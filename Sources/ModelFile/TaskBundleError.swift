/// Why a `.task` bundle, or one of its members, could not be read.
///
/// The description names the bundle, the member when one is concerned, and
/// the problem, so a log line alone says which download is broken and how.
package struct TaskBundleError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What kind of problem it is, for callers that react differently to each.
    package enum Kind: Sendable, Equatable {
        /// The bundle file cannot be read.
        case missingFile
        /// The bytes are not a zip archive this reader understands, or are cut short.
        case malformed
        /// No member has the requested name.
        case memberMissing
        /// The member is compressed; bundles store their members uncompressed.
        case compressedMember
        /// The member's bytes do not match the CRC-32 the archive recorded.
        case crcMismatch
        /// The member's bytes do not match the SHA-256 the caller expected.
        case sha256Mismatch
    }

    /// The bundle (a path, or a caller-given label for in-memory bytes).
    package var file: String
    /// The member concerned, or nil when the problem is the archive as a whole.
    package var member: String?
    /// What kind of problem it is.
    package var kind: Kind
    /// What is wrong, in words.
    package var problem: String

    /// Creates an error.
    package init(file: String, member: String? = nil, kind: Kind, problem: String) {
        self.file = file
        self.member = member
        self.kind = kind
        self.problem = problem
    }

    package var description: String {
        if let member { return "\(file): member '\(member)': \(problem)" }
        return "\(file): \(problem)"
    }
}
