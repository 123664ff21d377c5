/// JPEG streams no encoder writes, built marker by marker, for the inputs a
/// hostile client could send.
enum HostileJPEG {
    /// An 8x8 grayscale progressive JPEG with `scans` scans: a DC scan, then
    /// identical first AC scans, which libjpeg's progression check accepts.
    /// Thousands of scans would make a decoder without a scan limit work for
    /// a long time on a few kilobytes.
    static func progressive(scans: Int) -> [UInt8] {
        var bytes: [UInt8] = [0xFF, 0xD8]
        // DQT: table 0, 8-bit precision, all 64 entries 1.
        bytes += [0xFF, 0xDB, 0x00, 0x43, 0x00] + [UInt8](repeating: 1, count: 64)
        // SOF2: precision 8, 8x8, one component (id 1, 1x1 sampling, table 0).
        bytes += [0xFF, 0xC2, 0x00, 0x0B, 0x08, 0x00, 0x08, 0x00, 0x08, 0x01, 0x01, 0x11, 0x00]
        // DHT: DC table 0, then AC table 0; one 1-bit code, for symbol 0.
        for tableClassAndID: UInt8 in [0x00, 0x10] {
            bytes += [0xFF, 0xC4, 0x00, 0x14, tableClassAndID, 1] + [UInt8](repeating: 0, count: 15) + [0x00]
        }
        for scan in 0..<scans {
            let (start, end): (UInt8, UInt8) = scan == 0 ? (0, 0) : (1, 63)
            // SOS: component 1, tables 0/0, spectral range, Ah = Al = 0, then the data byte.
            bytes += [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, start, end, 0x00, 0x7F]
        }
        return bytes + [0xFF, 0xD9]
    }

    /// `jpeg` with its frame header (SOFn) stating `width` x `height`.
    static func replacingSize(of jpeg: [UInt8], width: Int, height: Int) -> [UInt8] {
        var patched = jpeg
        var offset = 2
        while offset + 9 <= jpeg.count, jpeg[offset] == 0xFF {
            let marker = jpeg[offset + 1]
            let length = Int(jpeg[offset + 2]) << 8 | Int(jpeg[offset + 3])
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                patched.replaceSubrange(offset + 5..<offset + 9, with: [UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF)])
                return patched
            }
            offset += 2 + length
        }
        return patched
    }
}
