/// JPEG streams no encoder writes, built marker by marker, for the inputs a
/// hostile client could send.
package enum HostileJPEG {
    /// An 8x8 grayscale progressive JPEG with `scans` scans (at least 1) and
    /// all coefficients zero, which decodes to flat grey 128.
    ///
    /// Scan 1 is the DC scan; every further scan is an identical first AC scan
    /// of coefficients 1...63 at full precision (Ah = Al = 0), which libjpeg's
    /// progression check accepts because each expects the precision the
    /// previous one left. Both Huffman tables hold a single 1-bit code, `0`,
    /// for symbol 0 (DC difference 0; AC end-of-band), so each scan's data is
    /// the bit 0 padded with 1s: 0x7F. Thousands of scans would make a decoder
    /// without a scan limit work for a long time on a few kilobytes.
    package static func progressive(scans: Int) -> [UInt8] {
        precondition(scans >= 1)
        var bytes: [UInt8] = [0xFF, 0xD8]
        // DQT: table 0, 8-bit precision, all 64 entries 1.
        bytes += [0xFF, 0xDB, 0x00, 0x43, 0x00] + [UInt8](repeating: 1, count: 64)
        // SOF2: precision 8, height 8, width 8, one component (id 1, 1x1 sampling, table 0).
        bytes += [0xFF, 0xC2, 0x00, 0x0B, 0x08, 0x00, 0x08, 0x00, 0x08, 0x01, 0x01, 0x11, 0x00]
        // DHT: DC table 0, then AC table 0; one code of length 1, for symbol 0.
        for tableClassAndID: UInt8 in [0x00, 0x10] {
            bytes += [0xFF, 0xC4, 0x00, 0x14, tableClassAndID, 1] + [UInt8](repeating: 0, count: 15) + [0x00]
        }
        for scan in 0..<scans {
            let (start, end): (UInt8, UInt8) = scan == 0 ? (0, 0) : (1, 63)
            // SOS: one component (id 1, tables 0/0), spectral start/end, Ah = Al = 0, then the data byte.
            bytes += [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, start, end, 0x00, 0x7F]
        }
        return bytes + [0xFF, 0xD9]
    }

    /// `jpeg` with its frame header (SOFn) stating `width` x `height` instead.
    package static func replacingSize(of jpeg: [UInt8], width: Int, height: Int) -> [UInt8] {
        var patched = jpeg
        let offset = frameHeaderOffset(of: jpeg)
        patched.replaceSubrange(
            offset + 5..<offset + 9,
            with: [UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF)])
        return patched
    }

    /// `jpeg` with its frame header (SOFn) stating a segment length of
    /// `length`, which no longer matches its component count.
    ///
    /// libjpeg rejects it while reading the header ("Bogus marker length"),
    /// from inside the marker reader rather than between images.
    package static func replacingFrameHeaderLength(of jpeg: [UInt8], with length: Int) -> [UInt8] {
        var patched = jpeg
        let offset = frameHeaderOffset(of: jpeg)
        patched.replaceSubrange(offset + 2..<offset + 4, with: [UInt8(length >> 8), UInt8(length & 0xFF)])
        return patched
    }

    /// Offset of the first byte of entropy-coded data (just after the first SOS segment).
    package static func scanDataOffset(of jpeg: [UInt8]) -> Int {
        guard let offset = firstSegment(of: jpeg, where: { $0 == 0xDA }) else {
            preconditionFailure("no scan found")
        }
        return offset + 2 + segmentLength(of: jpeg, at: offset)
    }

    /// Offset of the frame header's marker.
    private static func frameHeaderOffset(of jpeg: [UInt8]) -> Int {
        // C4, C8 and CC share the SOFn range but are DHT, JPG and DAC.
        let isFrameHeader = { (marker: UInt8) in (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker) }
        guard let offset = firstSegment(of: jpeg, where: isFrameHeader) else {
            preconditionFailure("no frame header found")
        }
        return offset
    }

    /// Offset of the first marker segment, walking from just after SOI, whose
    /// marker code satisfies `matches`.
    private static func firstSegment(of jpeg: [UInt8], where matches: (UInt8) -> Bool) -> Int? {
        var offset = 2
        while offset + 4 <= jpeg.count, jpeg[offset] == 0xFF {
            if matches(jpeg[offset + 1]) { return offset }
            offset += 2 + segmentLength(of: jpeg, at: offset)
        }
        return nil
    }

    private static func segmentLength(of jpeg: [UInt8], at offset: Int) -> Int {
        Int(jpeg[offset + 2]) << 8 | Int(jpeg[offset + 3])
    }

    /// Applies one random mutation to `jpeg` and says what it did: a flipped
    /// bit, a byte or a marker written over it, a cut, random bytes inserted,
    /// bytes deleted or a run copied elsewhere. Half of the time it strikes
    /// within the first kilobyte, where the markers that steer a decoder are.
    package static func mutate(_ jpeg: inout [UInt8], using random: inout some RandomNumberGenerator) -> String {
        guard jpeg.count > 4 else {
            jpeg += [0xFF, 0xD9]
            return "appended an end marker"
        }
        let limit = Bool.random(using: &random) ? min(jpeg.count, 1024) : jpeg.count
        let at = Int.random(in: 0..<limit, using: &random)
        switch random.next() % 7 {
        case 0:
            let bit = UInt8(1) << UInt8.random(in: 0...7, using: &random)
            jpeg[at] ^= bit
            return "flipped bit \(bit) of JPEG byte \(at)"
        case 1:
            let value = UInt8(truncatingIfNeeded: random.next())
            jpeg[at] = value
            return "set JPEG byte \(at) to \(value)"
        case 2:
            let marker: UInt8 = [0xD8, 0xD9, 0xDA, 0xDB, 0xC4, 0xC0, 0xC2, 0xDD, 0xD0, 0xFF, 0x00].randomElement(using: &random)!
            jpeg.replaceSubrange(at..<min(jpeg.count, at + 2), with: [0xFF, marker])
            return "wrote marker FF \(String(marker, radix: 16)) at JPEG byte \(at)"
        case 3:
            jpeg.removeSubrange(at...)
            return "cut the JPEG to \(at) bytes"
        case 4:
            let count = Int.random(in: 1...64, using: &random)
            jpeg.insert(contentsOf: (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }, at: at)
            return "inserted \(count) random bytes at JPEG byte \(at)"
        case 5:
            let end = min(jpeg.count, at + Int.random(in: 1...256, using: &random))
            jpeg.removeSubrange(at..<end)
            return "deleted JPEG bytes \(at)..<\(end)"
        default:
            let end = min(jpeg.count, at + Int.random(in: 1...512, using: &random))
            let to = Int.random(in: 0...jpeg.count, using: &random)
            jpeg.insert(contentsOf: Array(jpeg[at..<end]), at: to)
            return "copied JPEG bytes \(at)..<\(end) to \(to)"
        }
    }
}
