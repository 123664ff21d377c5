/// JPEG streams written marker by marker, for inputs no encoder produces.
enum HandMadeJPEG {
    /// An 8x8 grayscale progressive JPEG with `scans` scans (at least 1) and
    /// all coefficients zero, which decodes to flat grey 128.
    ///
    /// Scan 1 is the DC scan; every further scan is an identical first AC scan
    /// of coefficients 1...63 at full precision (Ah = Al = 0), which libjpeg's
    /// progression check accepts because each expects the precision the
    /// previous one left. Both Huffman tables hold a single 1-bit code, `0`,
    /// for symbol 0 (DC difference 0; AC end-of-band), so each scan's data is
    /// the bit 0 padded with 1s: 0x7F.
    static func progressive(scans: Int) -> [UInt8] {
        precondition(scans >= 1)
        var bytes: [UInt8] = [0xFF, 0xD8]
        // DQT: table 0, 8-bit precision, all 64 entries 1.
        bytes += [0xFF, 0xDB, 0x00, 0x43, 0x00] + [UInt8](repeating: 1, count: 64)
        // SOF2: precision 8, height 8, width 8, one component (id 1, 1x1 sampling, table 0).
        bytes += [0xFF, 0xC2, 0x00, 0x0B, 0x08, 0x00, 0x08, 0x00, 0x08, 0x01, 0x01, 0x11, 0x00]
        // DHT: DC table 0, then AC table 0; one code of length 1, for symbol 0.
        for tableClassAndId: UInt8 in [0x00, 0x10] {
            bytes += [0xFF, 0xC4, 0x00, 0x14, tableClassAndId, 1] + [UInt8](repeating: 0, count: 15) + [0x00]
        }
        for scan in 0..<scans {
            let (start, end): (UInt8, UInt8) = scan == 0 ? (0, 0) : (1, 63)
            // SOS: one component (id 1, tables 0/0), spectral start/end, Ah = Al = 0.
            bytes += [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, start, end, 0x00, 0x7F]
        }
        return bytes + [0xFF, 0xD9]
    }

    /// `jpeg` with the frame header (SOFn) stating `width` x `height` instead,
    /// found by walking the marker segments from the start.
    static func replacingSize(of jpeg: [UInt8], width: Int, height: Int) -> [UInt8] {
        var patched = jpeg
        var offset = 2
        while offset + 4 <= jpeg.count, jpeg[offset] == 0xFF {
            let marker = jpeg[offset + 1]
            let length = Int(jpeg[offset + 2]) << 8 | Int(jpeg[offset + 3])
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                patched[offset + 5] = UInt8(height >> 8)
                patched[offset + 6] = UInt8(height & 0xFF)
                patched[offset + 7] = UInt8(width >> 8)
                patched[offset + 8] = UInt8(width & 0xFF)
                return patched
            }
            offset += 2 + length
        }
        preconditionFailure("no frame header found")
    }

    /// Offset of the first byte of entropy-coded data (just after the first SOS segment).
    static func scanDataOffset(of jpeg: [UInt8]) -> Int {
        var offset = 2
        while offset + 4 <= jpeg.count, jpeg[offset] == 0xFF {
            let length = Int(jpeg[offset + 2]) << 8 | Int(jpeg[offset + 3])
            if jpeg[offset + 1] == 0xDA { return offset + 2 + length }
            offset += 2 + length
        }
        preconditionFailure("no scan found")
    }
}
