import Foundation

/// A MediaPipe `.task` bundle: a zip archive whose members (`.tflite` models
/// and metadata) are stored uncompressed, read without a zip library.
///
/// Opening reads the archive's central directory and checks that every
/// member lies inside the file and has a local header that agrees with its
/// directory entry. Reading a member checks that it is stored, then its
/// CRC-32, and, when the caller gives one, its SHA-256. The value holds the whole file and is
/// immutable, so it can be shared between threads.
package struct TaskBundle: Sendable {
    /// One member as the central directory describes it.
    package struct Member: Sendable, Equatable {
        /// The member's name inside the archive, such as `face_detector.tflite`.
        package let name: String
        /// Its size in bytes, uncompressed.
        package let size: Int
        /// The CRC-32 the archive recorded for it.
        package let crc32: UInt32
        /// The zip compression method: 0 (stored) is the only one this reader reads.
        package let method: UInt16
        /// How many bytes it takes in the archive.
        let storedSize: Int
        /// Where its bytes start in the archive.
        let dataOffset: Int
    }

    /// Where the bundle came from (a path, or a label for in-memory bytes).
    package let file: String
    /// The members in central directory order.
    package let members: [Member]
    private let bytes: [UInt8]

    /// Opens the bundle at `path`.
    package init(path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw TaskBundleError(file: path, kind: .missingFile,
                                  problem: "cannot be read (missing, or not a readable file); run `make models` to fetch the models")
        }
        try self.init(bytes: [UInt8](data), file: path)
    }

    /// Opens a bundle held in memory; `file` labels errors and loaded models.
    package init(bytes: [UInt8], file: String) throws {
        self.file = file
        self.bytes = bytes
        members = try ZipDirectory(bytes: bytes, file: file).members()
    }

    /// The names of the members, in archive order.
    package var memberNames: [String] { members.map(\.name) }

    /// The bytes of member `name`, checked against the archive's CRC-32 and,
    /// when `sha256` (64 hexadecimal digits, either case) is given, against it.
    package func bytes(of name: String, sha256: String? = nil) throws -> [UInt8] {
        guard let member = members.first(where: { $0.name == name }) else {
            throw TaskBundleError(file: file, member: name, kind: .memberMissing,
                                  problem: "is not in the bundle (members: \(memberNames.joined(separator: ", ")))")
        }
        guard member.method == 0 else {
            let described = member.method == 8 ? "deflated (method 8)" : "compressed with method \(member.method)"
            throw TaskBundleError(file: file, member: name, kind: .compressedMember,
                                  problem: "is \(described); only stored (uncompressed) members can be read, as MediaPipe writes them")
        }
        guard member.storedSize == member.size else {
            throw TaskBundleError(file: file, member: name, kind: .malformed,
                                  problem: "is stored but takes \(member.storedSize) bytes for \(member.size) bytes of content")
        }
        let slice = bytes[member.dataOffset..<member.dataOffset + member.size]
        let crc = CRC32.checksum(of: slice)
        guard crc == member.crc32 else {
            throw TaskBundleError(file: file, member: name, kind: .crcMismatch,
                                  problem: "CRC-32 is \(Self.hex(crc)) but the archive records \(Self.hex(member.crc32)); the bundle is damaged")
        }
        let contents = Array(slice)
        if let expected = sha256?.lowercased() {
            let actual = ModelDigest.hexDigest(of: contents)
            guard actual == expected else {
                throw TaskBundleError(file: file, member: name, kind: .sha256Mismatch,
                                      problem: "SHA-256 is \(actual), expected \(expected)")
            }
        }
        return contents
    }

    /// Loads and folds the model stored as member `name`, labelled
    /// `<bundle>:<member>` in its errors and in `Model.file`.
    package func model(_ name: String, sha256: String? = nil) throws -> Model {
        try ModelLoader.load(bytes: try bytes(of: name, sha256: sha256), file: "\(file):\(name)")
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
    }
}
