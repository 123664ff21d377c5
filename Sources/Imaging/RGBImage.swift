/// An image in 8-bit RGB, tightly packed (row stride `width * 3`), row 0 at
/// the top of the stored image: what the JPEG decoder produces. The sampler
/// reads it in place as an RGB ``RawFrameView``.
package struct RGBImage: Sendable, Equatable {
    /// Number of columns.
    package let width: Int
    /// Number of rows.
    package let height: Int
    /// `width * height * 3` bytes: R, G, B for each pixel, row by row.
    package let pixels: [UInt8]

    /// Wraps packed RGB bytes, checking that they match the dimensions.
    ///
    /// - Throws: ``ImagingError/emptyImage(width:height:)`` for a non-positive
    ///   side, ``ImagingError/bufferSizeMismatch(format:width:height:rowStride:expected:actual:)``
    ///   when `pixels.count` is not `width * height * 3`.
    package init(width: Int, height: Int, pixels: [UInt8]) throws(ImagingError) {
        try PixelLimit.check(width: width, height: height, maxPixels: .max)
        let expected = FrameGeometry.saturatingProduct(width, height, 3)
        guard pixels.count == expected else {
            throw .bufferSizeMismatch(
                format: .rgb, width: width, height: height, rowStride: width * 3,
                expected: expected, actual: pixels.count
            )
        }
        self.init(validatedWidth: width, height: height, pixels: pixels)
    }

    /// For producers in this module that built `pixels` to size themselves.
    init(validatedWidth width: Int, height: Int, pixels: [UInt8]) {
        assert(pixels.count == width * height * 3)
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The image's dimensions.
    package var size: PixelSize { PixelSize(width: width, height: height) }
}

extension RGBImage {
    /// The image as a raw RGB frame, for the duration of `body`.
    package func withView<Result, Failure: Error>(
        _ body: (RawFrameView) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try pixels.withUnsafeBufferPointer { (buffer) throws(Failure) -> Result in
            try body(RawFrameView(packedRGB: UnsafeRawBufferPointer(buffer), width: width, height: height))
        }
    }
}
