/// The central directory of a zip archive (PKWARE APPNOTE 6.3), read as far
/// as a `.task` bundle needs: one disk, no ZIP64, no encryption, stored members.
///
/// The central directory is authoritative for names, sizes and CRCs (a member
/// written with a data descriptor has zeros in its local header); each local
/// header is read only to find where the member's data starts. A compressed
/// member is listed; only reading it is refused, so a bundle with one such
/// member still serves the others.
struct ZipDirectory {
    let bytes: [UInt8]
    let file: String

    private static let endSignature: UInt32 = 0x0605_4B50
    private static let centralSignature: UInt32 = 0x0201_4B50
    private static let localSignature: UInt32 = 0x0403_4B50
    private static let endRecordSize = 22
    private static let centralHeaderSize = 46
    private static let localHeaderSize = 30
    /// The end record may be followed by a comment of up to this many bytes.
    private static let maximumCommentSize = 0xFFFF

    func members() throws -> [TaskBundle.Member] {
        let end = try endRecord()
        guard try u16(end + 4) == 0, try u16(end + 6) == 0, try u16(end + 8) == u16(end + 10) else {
            throw malformed("spans several disks, which bundles never do")
        }
        let count = Int(try u16(end + 10))
        let directorySize = Int(try u32(end + 12))
        let directoryOffset = Int(try u32(end + 16))
        guard count != 0xFFFF, directorySize != 0xFFFF_FFFF, directoryOffset != 0xFFFF_FFFF else {
            throw malformed("is a ZIP64 archive, which bundles never need")
        }
        guard directoryOffset <= end, directorySize <= end - directoryOffset else {
            throw malformed("says its central directory lies at \(directoryOffset)..<\(directoryOffset + directorySize), past its end record at \(end); the file is truncated or not a zip")
        }
        var members: [TaskBundle.Member] = []
        var offset = directoryOffset
        for index in 0..<count {
            guard try u32(offset) == Self.centralSignature else {
                throw malformed("central directory entry \(index) at byte \(offset) has no entry signature")
            }
            let nameLength = Int(try u16(offset + 28))
            let name = String(decoding: try range(offset + Self.centralHeaderSize, nameLength, "entry \(index)'s name"), as: UTF8.self)
            let member = try self.member(at: offset, name: name)
            guard !members.contains(where: { $0.name == name }) else {
                throw TaskBundleError(file: file, member: name, kind: .malformed, problem: "appears twice in the central directory")
            }
            members.append(member)
            offset += Self.centralHeaderSize + nameLength + Int(try u16(offset + 30)) + Int(try u16(offset + 32))
        }
        guard offset <= directoryOffset + directorySize else {
            throw malformed("central directory entries run past the directory's recorded size of \(directorySize) bytes")
        }
        return members
    }

    /// One central directory entry, checked against its local header.
    private func member(at offset: Int, name: String) throws -> TaskBundle.Member {
        func fail(_ kind: TaskBundleError.Kind, _ problem: String) -> TaskBundleError {
            TaskBundleError(file: file, member: name, kind: kind, problem: problem)
        }
        let flags = try u16(offset + 8)
        let method = try u16(offset + 10)
        let crc = try u32(offset + 16)
        let compressedSize = Int(try u32(offset + 20))
        let size = Int(try u32(offset + 24))
        let localOffset = Int(try u32(offset + 42))
        guard flags & 1 == 0 else { throw fail(.malformed, "is encrypted") }
        guard try u32(localOffset) == Self.localSignature else {
            throw fail(.malformed, "has no local header at byte \(localOffset)")
        }
        let localName = try range(localOffset + Self.localHeaderSize, Int(try u16(localOffset + 26)), "its local header's name")
        guard localName.elementsEqual(name.utf8) else {
            throw fail(.malformed, "has local header name '\(String(decoding: localName, as: UTF8.self))'")
        }
        let dataOffset = localOffset + Self.localHeaderSize + localName.count + Int(try u16(localOffset + 28))
        guard dataOffset <= bytes.count, compressedSize <= bytes.count - dataOffset else {
            throw fail(.malformed, "needs bytes \(dataOffset)..<\(dataOffset + compressedSize) of a file of \(bytes.count); the bundle is truncated")
        }
        return TaskBundle.Member(name: name, size: size, crc32: crc, method: method, storedSize: compressedSize, dataOffset: dataOffset)
    }

    /// The offset of the end of central directory record, searched backwards
    /// over the space a trailing comment may take.
    private func endRecord() throws -> Int {
        guard bytes.count >= Self.endRecordSize else {
            throw malformed("is \(bytes.count) bytes long, too short to be a zip archive")
        }
        let last = bytes.count - Self.endRecordSize
        for offset in stride(from: last, through: max(0, last - Self.maximumCommentSize), by: -1) {
            if try u32(offset) == Self.endSignature, offset + Self.endRecordSize + Int(try u16(offset + 20)) == bytes.count {
                return offset
            }
        }
        throw malformed("has no zip end of central directory record; it is not a zip archive, or is truncated")
    }

    private func range(_ start: Int, _ count: Int, _ what: String) throws -> ArraySlice<UInt8> {
        guard start >= 0, count >= 0, start <= bytes.count, count <= bytes.count - start else {
            throw malformed("\(what) at bytes \(start)..<\(start + count) lies outside the file of \(bytes.count) bytes; it is truncated")
        }
        return bytes[start..<start + count]
    }

    private func u16(_ offset: Int) throws -> UInt16 {
        let b = try range(offset, 2, "a 2-byte field")
        return UInt16(b[offset]) | UInt16(b[offset + 1]) << 8
    }

    private func u32(_ offset: Int) throws -> UInt32 {
        let b = try range(offset, 4, "a 4-byte field")
        return UInt32(b[offset]) | UInt32(b[offset + 1]) << 8 | UInt32(b[offset + 2]) << 16 | UInt32(b[offset + 3]) << 24
    }

    private func malformed(_ problem: String) -> TaskBundleError {
        TaskBundleError(file: file, kind: .malformed, problem: problem)
    }
}
