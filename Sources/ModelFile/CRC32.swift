/// CRC-32 as zip files store it (ISO 3309, reflected polynomial 0xEDB88320),
/// to check that a bundle member's bytes are the ones the archive recorded.
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { byte in
        var value = UInt32(byte)
        for _ in 0..<8 { value = value & 1 != 0 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    /// The checksum of `bytes`.
    static func checksum(of bytes: ArraySlice<UInt8>) -> UInt32 {
        table.withUnsafeBufferPointer { table in
            bytes.withUnsafeBufferPointer { bytes in
                var crc: UInt32 = 0xFFFF_FFFF
                for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
                return ~crc
            }
        }
    }
}
