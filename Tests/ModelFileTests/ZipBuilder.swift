@testable import ModelFile

/// Writes small zip archives in memory, so the bundle tests can build
/// well-formed and deliberately broken bundles without a zip tool.
struct ZipBuilder {
    struct Entry {
        var name: String
        var contents: [UInt8]
        /// The compression method recorded; the contents are written as given.
        var method: UInt16 = 0
    }

    var entries: [Entry]

    func bytes() -> [UInt8] {
        var archive: [UInt8] = []
        var directory: [UInt8] = []
        for entry in entries {
            let name = Array(entry.name.utf8)
            let crc = CRC32.checksum(of: entry.contents[...])
            let localOffset = UInt32(archive.count)
            archive += le32(0x0403_4B50) + le16(20) + le16(0) + le16(entry.method) + le16(0) + le16(0)
            archive += le32(crc) + le32(UInt32(entry.contents.count)) + le32(UInt32(entry.contents.count))
            archive += le16(UInt16(name.count)) + le16(0) + name + entry.contents
            directory += le32(0x0201_4B50) + le16(20) + le16(20) + le16(0) + le16(entry.method) + le16(0) + le16(0)
            directory += le32(crc) + le32(UInt32(entry.contents.count)) + le32(UInt32(entry.contents.count))
            directory += le16(UInt16(name.count)) + le16(0) + le16(0) + le16(0) + le16(0) + le32(0) + le32(localOffset) + name
        }
        let directoryOffset = UInt32(archive.count)
        archive += directory
        archive += le32(0x0605_4B50) + le16(0) + le16(0) + le16(UInt16(entries.count)) + le16(UInt16(entries.count))
        archive += le32(UInt32(directory.count)) + le32(directoryOffset) + le16(0)
        return archive
    }

    private func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    private func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
}
