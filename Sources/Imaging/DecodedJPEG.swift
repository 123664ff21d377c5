/// A JPEG decoded by ``JPEGDecoder``:
/// the pixels and how they relate to the JPEG's own size.
public struct DecodedJPEG: Sendable, Equatable {
    /// The decoded pixels, `scale.scaledSize(of: sourceSize)` in size.
    public var image: RGBImage
    /// The DCT reduction applied while decoding.
    public var scale: JPEGScale
    /// The JPEG's size as its header states it.
    public var sourceSize: PixelSize

    /// Bundles a decode result.
    public init(image: RGBImage, scale: JPEGScale, sourceSize: PixelSize) {
        self.image = image
        self.scale = scale
        self.sourceSize = sourceSize
    }
}
