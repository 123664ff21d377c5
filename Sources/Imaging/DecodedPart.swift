/// Part of a JPEG's stored image, decoded: what a frame needs when every
/// tensor it samples lies in one region, such as the faces a video session
/// follows from its previous frame.
///
/// Made by ``JPEGDecoder/decodePart(_:size:region:)``.
package struct DecodedPart: Sendable {
    /// The decoded rows, `rowStride` bytes apart, each `width` pixels of RGB
    /// from stored column `origin.column` on; the bytes after them are zero.
    private let pixels: [UInt8]
    private let width: Int
    private let height: Int
    private let rowStride: Int
    private let origin: (column: Int, row: Int)
    /// The stored pixels held exactly as a whole decode gives them: at least
    /// the region that was asked for.
    package let region: PixelRegion
    /// The size of the whole stored image.
    package let storedSize: PixelSize

    init(pixels: [UInt8], width: Int, height: Int, rowStride: Int, origin: (column: Int, row: Int), region: PixelRegion,
         storedSize: PixelSize) {
        precondition(pixels.count == rowStride * height && rowStride >= width * 3, "part buffer does not match its geometry")
        self.pixels = pixels
        self.width = width
        self.height = height
        self.rowStride = rowStride
        self.origin = origin
        self.region = region
        self.storedSize = storedSize
    }

    /// The part as a frame stored in `orientation`, for the duration of `body`:
    /// its size is the whole image's, and it samples only tensors in ``region``.
    package func withFrame<Result, Failure: Error>(
        orientation: ImageOrientation, _ body: (OrientedFrame) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try pixels.withUnsafeBufferPointer { (buffer) throws(Failure) -> Result in
            let view = RawFrameView(packedRGB: UnsafeRawBufferPointer(buffer), width: width, height: height, rowStride: rowStride)
            return try body(OrientedFrame(part: view, origin: origin, region: region, storedSize: storedSize, orientation: orientation))
        }
    }
}
