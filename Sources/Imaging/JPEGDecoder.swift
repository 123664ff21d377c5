import CTurboJPEG

/// Decodes JPEG images to ``RGBImage`` with TurboJPEG, safely for untrusted input.
///
/// Every decode:
/// - reads the header first and rejects empty images and images over the
///   caller's pixel limit before any pixel data is decoded or allocated;
/// - decodes at full resolution straight into the returned image's packed
///   RGB buffer, with no copy in between;
/// - decodes damaged or truncated compressed data as libjpeg does (what
///   cannot be decoded is grey) and returns libjpeg's warning, or, when the
///   caller refuses damaged images, treats the warning as an error and passes
///   `TJFLAG_STOPONWARNING` so that decoding stops at the first one;
/// - passes `TJFLAG_LIMITSCANS`, so a progressive JPEG with more than 500
///   scans (built to make decoding take quadratic time) is an error.
///
/// Each call runs on a TurboJPEG instance of its own, made for it and freed
/// after it: libjpeg keeps an image's Huffman and quantization tables for the
/// next (abbreviated streams), so a JPEG that left a table out would decode
/// with the table of whatever the instance decoded before, another session's
/// frame perhaps, rather than with the standard one a fresh instance takes;
/// and TurboJPEG 2.1 leaves an instance that failed inside a marker segment
/// resuming that image's markers on the next call. An instance costs well
/// under a microsecond; a decode's buffers are allocated per image anyway. So
/// a decoder holds nothing, and any thread may use any decoder.
package struct JPEGDecoder: Sendable {
    /// A decoder.
    package init() {}

    /// Runs `body` on a new TurboJPEG decompressor, freed when it returns.
    ///
    /// - Throws: ``ImagingError/turboJPEG(_:)`` if TurboJPEG cannot allocate
    ///   one, or what `body` throws.
    private func withInstance<Result>(_ body: (tjhandle) throws(ImagingError) -> Result) throws(ImagingError) -> Result {
        guard let handle = tjInitDecompress() else {
            throw .turboJPEG(turboJPEGMessage(nil))
        }
        defer { tjDestroy(handle) }
        return try body(handle)
    }

    /// The image size stated in the JPEG's header, without decoding anything else.
    ///
    /// - Throws: ``ImagingError/invalidJPEG(_:)`` if no valid header with a
    ///   positive size is found, ``ImagingError/turboJPEG(_:)`` if TurboJPEG
    ///   could not allocate an instance.
    package func header(of jpeg: UnsafeRawBufferPointer) throws(ImagingError) -> PixelSize {
        guard let base = jpeg.baseAddress, !jpeg.isEmpty else {
            throw .invalidJPEG("no data")
        }
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        try withInstance { (handle) throws(ImagingError) in
            let status = tjDecompressHeader3(
                handle, base.assumingMemoryBound(to: UInt8.self), UInt(jpeg.count),
                &width, &height, &subsampling, &colorspace
            )
            guard status == 0 else {
                throw .invalidJPEG(turboJPEGMessage(handle))
            }
        }
        // TurboJPEG reports success without a size for a stream that ends
        // before any frame header (it reads it as a tables-only stream).
        guard width > 0, height > 0 else {
            throw .invalidJPEG("no frame header: the data ends before the image size")
        }
        return PixelSize(width: Int(width), height: Int(height))
    }

    /// The image size stated in the JPEG's header, as the `UnsafeRawBufferPointer` variant reads it.
    package func header(of jpeg: [UInt8]) throws(ImagingError) -> PixelSize {
        // Array.withUnsafeBytes is untyped-rethrows; withUnsafeBufferPointer keeps the typed error.
        try jpeg.withUnsafeBufferPointer { (bytes) throws(ImagingError) in
            try header(of: UnsafeRawBufferPointer(bytes))
        }
    }

    /// Decodes a JPEG to packed RGB at full resolution, in the orientation it is stored in.
    ///
    /// - Parameters:
    ///   - jpeg: the compressed bytes.
    ///   - maxPixels: the largest `width * height`, as stated in the header,
    ///     that is accepted; checked before decoding starts.
    /// - Throws: ``ImagingError/invalidJPEG(_:)`` with TurboJPEG's message for
    ///   data TurboJPEG refuses (including a header without a positive size),
    ///   ``ImagingError/tooManyPixels(width:height:limit:)`` for a header over
    ///   the limit, ``ImagingError/turboJPEG(_:)`` if TurboJPEG could not
    ///   allocate an instance.
    package func decode(_ jpeg: UnsafeRawBufferPointer, maxPixels: Int) throws(ImagingError) -> RGBImage {
        let size = try header(of: jpeg)
        try PixelLimit.check(width: size.width, height: size.height, maxPixels: maxPixels)
        return try decode(jpeg, size: size)
    }

    /// Decodes a JPEG whose header was already read with ``header(of:)`` (and
    /// its size checked against the caller's limit), without reading it again.
    ///
    /// - Parameters:
    ///   - jpeg: the compressed bytes ``header(of:)`` read.
    ///   - size: the size ``header(of:)`` returned for them.
    /// - Throws: ``ImagingError/invalidJPEG(_:)`` with TurboJPEG's message for
    ///   data TurboJPEG refuses, ``ImagingError/turboJPEG(_:)`` if TurboJPEG
    ///   could not allocate an instance.
    package func decode(_ jpeg: [UInt8], size: PixelSize) throws(ImagingError) -> RGBImage {
        try jpeg.withUnsafeBufferPointer { (bytes) throws(ImagingError) in
            try decode(UnsafeRawBufferPointer(bytes), size: size)
        }
    }

    private func decode(_ jpeg: UnsafeRawBufferPointer, size: PixelSize) throws(ImagingError) -> RGBImage {
        try decode(jpeg, size: size, refuseDamaged: true).image
    }

    /// A decoded image and what libjpeg said about damage it decoded over.
    package struct Decoded: Sendable {
        /// The pixels, in the orientation they are stored in.
        package let image: RGBImage
        /// libjpeg's warning for damaged or truncated data, nil for a sound JPEG.
        package let warning: String?
    }

    /// Decodes a JPEG whose header was already read with ``header(of:)`` (and
    /// its size checked against the caller's limit).
    ///
    /// - Parameters:
    ///   - jpeg: the compressed bytes ``header(of:)`` read.
    ///   - size: the size ``header(of:)`` returned for them.
    ///   - refuseDamaged: whether damaged compressed data is an error rather
    ///     than decoded with a warning.
    /// - Throws: ``ImagingError/invalidJPEG(_:)`` with TurboJPEG's message for
    ///   data TurboJPEG refuses (and for damaged data when `refuseDamaged`),
    ///   ``ImagingError/turboJPEG(_:)`` if TurboJPEG could not allocate an
    ///   instance.
    package func decode(_ jpeg: UnsafeRawBufferPointer, size: PixelSize, refuseDamaged: Bool) throws(ImagingError) -> Decoded {
        try withInstance { (handle) throws(ImagingError) in
            try decode(jpeg, size: size, refuseDamaged: refuseDamaged, on: handle)
        }
    }

    private func decode(_ jpeg: UnsafeRawBufferPointer, size: PixelSize, refuseDamaged: Bool,
                        on handle: tjhandle) throws(ImagingError) -> Decoded {
        let flags = TJFLAG_LIMITSCANS | (refuseDamaged ? TJFLAG_STOPONWARNING : 0)
        let count = size.width * size.height * 3
        func decompress(into destination: UnsafeMutableBufferPointer<UInt8>) -> Int32 {
            // The header's own size makes TurboJPEG pick scaling factor 1 and fill the whole buffer.
            tjDecompress2(
                handle, jpeg.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt(jpeg.count),
                destination.baseAddress, Int32(size.width), Int32(size.width * 3), Int32(size.height),
                Int32(TJPF_RGB.rawValue), flags
            )
        }
        var warned = false
        let pixels = try [UInt8](unsafeUninitializedCapacity: count) { (destination, initialized) throws(ImagingError) in
            if decompress(into: destination) != 0 {
                guard !refuseDamaged, tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue) else {
                    throw .invalidJPEG(turboJPEGMessage(handle))
                }
                warned = true
            }
            initialized = destination.count
        }
        guard warned else {
            return Decoded(image: RGBImage(validatedWidth: size.width, height: size.height, pixels: pixels), warning: nil)
        }
        // The warning flag also stays up when a fatal error follows a warning,
        // which leaves the rows after it unwritten: decode again into memory
        // filled with mid-grey, so no row is ever uninitialised and rows libjpeg
        // never reached look as the parts it could not decode do.
        var filled = [UInt8](repeating: 128, count: count)
        _ = filled.withUnsafeMutableBufferPointer { decompress(into: $0) }
        return Decoded(image: RGBImage(validatedWidth: size.width, height: size.height, pixels: filled),
                       warning: turboJPEGMessage(handle))
    }

    /// Decodes a JPEG to packed RGB, exactly as the `UnsafeRawBufferPointer` variant does.
    package func decode(_ jpeg: [UInt8], maxPixels: Int) throws(ImagingError) -> RGBImage {
        try jpeg.withUnsafeBufferPointer { (bytes) throws(ImagingError) in
            try decode(UnsafeRawBufferPointer(bytes), maxPixels: maxPixels)
        }
    }
}
