/// An upright image as the face pipeline consumes it: 8-bit RGB, tightly
/// packed (row stride `width * 3`), row 0 at the top.
///
/// Every decoder and converter in this module produces one, and the tensor
/// sampler reads one, so the rest of the pipeline sees a single pixel layout.
public struct RGBImage: Sendable, Equatable {
    /// Number of columns.
    public let width: Int
    /// Number of rows.
    public let height: Int
    /// `width * height * 3` bytes: R, G, B for each pixel, row by row.
    public let pixels: [UInt8]

    /// Wraps packed RGB bytes, checking that they match the dimensions.
    ///
    /// - Throws: ``ImagingError/emptyImage(width:height:)`` for a non-positive
    ///   side, ``ImagingError/bufferSizeMismatch(format:width:height:rowStride:expected:actual:)``
    ///   when `pixels.count` is not `width * height * 3`.
    public init(width: Int, height: Int, pixels: [UInt8]) throws(ImagingError) {
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
    public var size: PixelSize { PixelSize(width: width, height: height) }
}
