import CJPEGRegion

/// Decoding less than a whole JPEG, or a whole one on two threads: both read
/// the rows before those they need only far enough to find where the next
/// row's data starts (entropy decoding), and spend the rest of the decode
/// (inverse DCT, chroma upsampling, colour conversion) on their own rows.
///
/// Either gives the pixels of a whole decode exactly, and either gives way to
/// one: a progressive or arithmetic-coded JPEG, one in another colour space,
/// and one whose data libjpeg finds damaged anywhere are decoded whole by
/// TurboJPEG, which reports the damage as ``decode(_:size:refuseDamaged:)``
/// always has.
extension JPEGDecoder {
    /// Runs `body` with every index in `0..<count`, at once where it can (a
    /// thread pool), and returns when all calls have returned.
    package typealias Parallelize = (_ count: Int, _ body: (Int) -> Void) -> Void

    /// Decodes the stored pixels of `region` (and a few around it), or returns
    /// nil when the JPEG must be decoded whole: it is not a single-scan
    /// Huffman-coded JPEG in YCbCr or grey, or its data is damaged anywhere,
    /// or `region` is empty or leaves the image.
    ///
    /// - Parameters:
    ///   - jpeg: the compressed bytes ``header(of:)`` read.
    ///   - size: the size ``header(of:)`` returned for them.
    ///   - region: the stored pixels wanted.
    package static func decodePart(_ jpeg: UnsafeRawBufferPointer, size: PixelSize, region: PixelRegion) -> DecodedPart? {
        guard let base = jpeg.baseAddress, region.area > 0, PixelRegion(size).contains(region) else { return nil }
        // libjpeg takes the chroma of a part's first and last columns from inside
        // the part only, unless they are the image's edges: one more column each
        // side keeps those two out of the region held.
        let first = max(0, region.columns.lowerBound - 1), end = min(size.width, region.columns.upperBound + 1)
        // libjpeg starts a part at an iMCU column: at most 31 columns further left
        // (four luma columns a chroma sample, eight a block).
        let rowStride = (end - max(0, first - 31)) * 3, rows = region.rows.count
        var part = fw_jpeg_part(first_row: Int32(region.rows.lowerBound), end_row: Int32(region.rows.upperBound),
                                first_column: Int32(first), end_column: Int32(end), read_to_end: 1)
        var decoded = false
        let pixels = [UInt8](unsafeUninitializedCapacity: rows * rowStride) { buffer, initialized in
            guard let out = buffer.baseAddress else { return }
            decoded = fw_jpeg_decode_part(base.assumingMemoryBound(to: UInt8.self), jpeg.count, &part, out, rowStride)
                == FW_JPEG_PART_DECODED
            guard decoded else { return }
            let rowBytes = Int(part.end_column - part.first_column) * 3
            for row in 0..<rows {
                (out + row * rowStride + rowBytes).initialize(repeating: 0, count: rowStride - rowBytes)
            }
            initialized = buffer.count
        }
        guard decoded else { return nil }
        let held = Int(part.first_column)..<Int(part.end_column)
        let exact = (held.lowerBound > 0 ? held.lowerBound + 1 : 0)..<(held.upperBound < size.width ? held.upperBound - 1 : size.width)
        return DecodedPart(pixels: pixels, width: held.count, height: rows, rowStride: rowStride,
                           origin: (held.lowerBound, region.rows.lowerBound),
                           region: PixelRegion(columns: exact, rows: region.rows), storedSize: size)
    }

    /// Decodes a whole JPEG as ``decode(_:size:refuseDamaged:)`` does, its rows
    /// split between the two calls `parallelize` makes. The second entropy-decodes
    /// the first's rows to reach its own, so the first takes the larger share.
    package func decode(_ jpeg: UnsafeRawBufferPointer, size: PixelSize, refuseDamaged: Bool,
                        parallelize: Parallelize) throws(ImagingError) -> Decoded {
        if let image = Self.decodeSplit(jpeg, size: size, parallelize: parallelize) {
            return Decoded(image: image, warning: nil)
        }
        return try decode(jpeg, size: size, refuseDamaged: refuseDamaged)
    }

    /// The first part's share of the rows, which balances the two on 640x360
    /// camera frames, where entropy decoding is 45 % of a whole decode: each
    /// part then takes two thirds of a whole decode's time.
    static let splitShare = 0.64

    private static func decodeSplit(_ jpeg: UnsafeRawBufferPointer, size: PixelSize, parallelize: Parallelize) -> RGBImage? {
        // Rows in whole iMCUs (16 for 4:2:0), and a split only where each part gets some.
        let split = Int(Double(size.height) * splitShare) / 16 * 16
        guard let base = jpeg.baseAddress, split > 0, split < size.height else { return nil }
        let rowStride = size.width * 3
        var decoded = false
        let pixels = [UInt8](unsafeUninitializedCapacity: size.height * rowStride) { buffer, initialized in
            guard let out = buffer.baseAddress else { return }
            withUnsafeTemporaryAllocation(of: fw_jpeg_part_status.self, capacity: 2) { statuses in
                statuses.initialize(repeating: FW_JPEG_PART_DAMAGED)
                parallelize(2) { index in
                    let rows = index == 0 ? 0..<split : split..<size.height
                    var part = fw_jpeg_part(first_row: Int32(rows.lowerBound), end_row: Int32(rows.upperBound),
                                            first_column: 0, end_column: Int32(size.width), read_to_end: index == 0 ? 0 : 1)
                    statuses[index] = fw_jpeg_decode_part(base.assumingMemoryBound(to: UInt8.self), jpeg.count, &part,
                                                          out + rows.lowerBound * rowStride, rowStride)
                }
                decoded = statuses.allSatisfy { $0 == FW_JPEG_PART_DECODED }
            }
            if decoded { initialized = buffer.count }
        }
        return decoded ? RGBImage(validatedWidth: size.width, height: size.height, pixels: pixels) : nil
    }
}
