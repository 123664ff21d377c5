import Imaging
import ImagingTesting
import Testing

/// libjpeg keeps an image's tables for the next image on the same instance;
/// a frame must decode from its own bytes alone, whatever came before it.
@Suite("JPEG tables")
struct JPEGTableTests {
    /// The JPEG's marker segments before its scan, and the rest from the scan on.
    static func segments(_ jpeg: [UInt8]) -> (head: [[UInt8]], scan: [UInt8]) {
        var head: [[UInt8]] = [], index = 2
        while index + 4 <= jpeg.count, jpeg[index] == 0xFF, jpeg[index + 1] != 0xDA {
            let length = Int(jpeg[index + 2]) << 8 | Int(jpeg[index + 3])
            head.append(Array(jpeg[index..<index + 2 + length]))
            index += 2 + length
        }
        return (head, Array(jpeg[index...]))
    }

    static func assemble(_ head: [[UInt8]], _ scan: [UInt8]) -> [UInt8] {
        [0xFF, 0xD8] + head.joined() + scan
    }

    /// The class and slot byte of a Huffman table segment holding one table.
    static func huffmanSlot(_ segment: [UInt8]) -> UInt8? {
        segment[1] == 0xC4 ? segment[4] : nil
    }

    @Test("a JPEG that leaves out its chroma Huffman tables decodes the same after a JPEG that defined others")
    func tablesDoNotCarryOver() throws {
        let size = PixelSize(width: 64, height: 48)
        let colour = try JPEGEncoder().encode(TestImages.noise(width: 64, height: 48, seed: 3), quality: 90, subsampling: .quarter)
        let parts = Self.segments(colour)
        #expect(parts.head.compactMap(Self.huffmanSlot).sorted() == [0x00, 0x01, 0x10, 0x11], "one segment per table")
        // The chroma tables left out: a fresh decoder takes the standard ones, which the encoder used.
        let abbreviated = Self.assemble(parts.head.filter { ![0x01, 0x11].contains(Self.huffmanSlot($0)) }, parts.scan)
        // A grey JPEG that also defines chroma tables, unused, as copies of its luma ones.
        let grey = Self.segments(try JPEGEncoder().encode(TestImages.gradient(width: 32, height: 32), subsampling: .grayscale))
        let copies = grey.head.filter { [0x00, 0x10].contains(Self.huffmanSlot($0)) }.map { segment in
            var copy = segment
            copy[4] |= 0x01
            return copy
        }
        let definer = Self.assemble(grey.head + copies, grey.scan)

        let fresh = try JPEGDecoder().decode(abbreviated, maxPixels: 1 << 20)
        #expect(JPEGDecoderTests.difference(fresh, try JPEGDecoder().decode(colour, maxPixels: 1 << 20)).max == 0)
        let decoder = JPEGDecoder()
        _ = try decoder.decode(definer, maxPixels: 1 << 20)
        let after = try abbreviated.withUnsafeBytes { (bytes) throws(ImagingError) in
            try decoder.decode(bytes, size: size, refuseDamaged: false)
        }
        #expect(after.warning == nil)
        #expect(after.image == fresh)
    }
}
