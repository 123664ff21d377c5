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
    /// With `parallelize`, the region's rows are split between its two calls.
    /// The second reads the data to its end, which is what finds damage after
    /// the region, so it takes the smaller share of the rows.
    ///
    /// - Parameters:
    ///   - jpeg: the compressed bytes ``header(of:)`` read.
    ///   - size: the size ``header(of:)`` returned for them.
    ///   - region: the stored pixels wanted.
    ///   - parallelize: runs the two halves at once; nil decodes on the calling thread.
    package static func decodePart(_ jpeg: UnsafeRawBufferPointer, size: PixelSize, region: PixelRegion,
                                   parallelize: Parallelize? = nil) -> DecodedPart? {
        guard let base = jpeg.baseAddress, region.area > 0, PixelRegion(size).contains(region) else { return nil }
        // libjpeg takes the chroma of a part's first and last columns from inside
        // the part only, unless they are the image's edges: one more column each
        // side keeps those two out of the region held.
        let first = max(0, region.columns.lowerBound - 1), end = min(size.width, region.columns.upperBound + 1)
        // libjpeg starts a part at an iMCU column: at most 31 columns further left
        // (four luma columns a chroma sample, eight a block).
        let rowStride = (end - max(0, first - 31)) * 3, rows = region.rows.count
        let split = parallelize == nil ? nil : splitRow(rows: region.rows, columnShare: Double(end - first) / Double(size.width),
                                                        height: size.height)
        let shares = split.map { [region.rows.lowerBound..<$0, $0..<region.rows.upperBound] } ?? [region.rows]
        var held: Range<Int>?
        let pixels = [UInt8](unsafeUninitializedCapacity: rows * rowStride) { buffer, initialized in
            guard let out = buffer.baseAddress else { return }
            withUnsafeTemporaryAllocation(of: fw_jpeg_part.self, capacity: shares.count) { parts in
                for (index, share) in shares.enumerated() {
                    parts.initializeElement(at: index, to: fw_jpeg_part(
                        first_row: Int32(share.lowerBound), end_row: Int32(share.upperBound), first_column: Int32(first),
                        end_column: Int32(end), read_to_end: index == shares.count - 1 ? 1 : 0))
                }
                withUnsafeTemporaryAllocation(of: fw_jpeg_part_status.self, capacity: shares.count) { statuses in
                    statuses.initialize(repeating: FW_JPEG_PART_DAMAGED)
                    let decode = { (index: Int) in
                        statuses[index] = fw_jpeg_decode_part(
                            base.assumingMemoryBound(to: UInt8.self), jpeg.count, parts.baseAddress! + index,
                            out + (shares[index].lowerBound - region.rows.lowerBound) * rowStride, rowStride)
                    }
                    if let parallelize, shares.count > 1 {
                        parallelize(shares.count, decode)
                    } else {
                        decode(0)
                    }
                    // Every share asked for the same columns, so libjpeg widens them alike.
                    let columns = parts.map { Int($0.first_column)..<Int($0.end_column) }
                    guard statuses.allSatisfy({ $0 == FW_JPEG_PART_DECODED }), Set(columns).count == 1 else { return }
                    held = columns[0]
                }
                parts.deinitialize()
            }
            guard let held else { return }
            for row in 0..<rows {
                (out + row * rowStride + held.count * 3).initialize(repeating: 0, count: rowStride - held.count * 3)
            }
            initialized = buffer.count
        }
        guard let held else { return nil }
        let exact = (held.lowerBound > 0 ? held.lowerBound + 1 : 0)..<(held.upperBound < size.width ? held.upperBound - 1 : size.width)
        return DecodedPart(pixels: pixels, width: held.count, height: rows, rowStride: rowStride,
                           origin: (held.lowerBound, region.rows.lowerBound),
                           region: PixelRegion(columns: exact, rows: region.rows), storedSize: size)
    }

    /// Where two threads best split the decode of `rows` of an image `height`
    /// rows tall, `columnShare` of its width decoded, when the second reads the
    /// data to its end: each entropy-decodes every row before its last, and
    /// transforms and converts its own rows. Nil when the rows are too few to share.
    ///
    /// On 640x360 camera frames entropy decoding is 45 % of a whole decode;
    /// the row that balances the two is rounded to a whole iMCU row (16 for
    /// 4:2:0) and leaves each share at least one.
    static func splitRow(rows: Range<Int>, columnShare: Double, height: Int) -> Int? {
        let entropy = 0.45, transform = (1 - entropy) * columnShare
        // entropy * s + transform * (s - lower) = entropy * height + transform * (upper - s)
        let balanced = (entropy * Double(height) + transform * Double(rows.lowerBound + rows.upperBound))
            / (entropy + 2 * transform)
        let split = Int(balanced) / 16 * 16
        guard split > rows.lowerBound, split < rows.upperBound else { return nil }
        return split
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

    private static func decodeSplit(_ jpeg: UnsafeRawBufferPointer, size: PixelSize, parallelize: Parallelize) -> RGBImage? {
        // Each part then takes about two thirds of a whole decode's time.
        guard let base = jpeg.baseAddress, let split = splitRow(rows: 0..<size.height, columnShare: 1, height: size.height) else {
            return nil
        }
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
