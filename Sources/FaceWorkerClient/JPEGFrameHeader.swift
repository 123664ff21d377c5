import Foundation

/// The size a JPEG file's frame header (SOF) gives, read without decoding:
/// only the worker decodes, but an image's size is wanted before.
enum JPEGFrameHeader {
    /// The stored width and height; nil when the bytes are not a JPEG file
    /// or its frame header cannot be found before the first scan.
    static func size(of jpeg: Data) -> (width: Int, height: Int)? {
        jpeg.withUnsafeBytes { bytes -> (width: Int, height: Int)? in
            guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
            var at = 2
            while at + 3 < bytes.count {
                guard bytes[at] == 0xFF else { return nil }
                let marker = bytes[at + 1]
                // Fill bytes and markers without a length.
                if marker == 0xFF || marker == 0x01 || (0xD0...0xD8).contains(marker) {
                    at += marker == 0xFF ? 1 : 2
                    continue
                }
                let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
                // SOF0 to SOF15, save DHT (C4), JPG (C8) and DAC (CC), which share the range.
                if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                    guard at + 8 < bytes.count else { return nil }
                    let height = Int(bytes[at + 5]) << 8 | Int(bytes[at + 6])
                    let width = Int(bytes[at + 7]) << 8 | Int(bytes[at + 8])
                    return (width, height)
                }
                if marker == 0xDA { return nil }
                at += 2 + length
            }
            return nil
        }
    }
}
