import FaceWorkerClient
import Foundation

/// An image to detect faces in (ML Kit's `VisionImage`): where iOS has
/// `UIImage` and `CMSampleBuffer`, a file, JPEG bytes, uncompressed pixels
/// (NV12 and I420 included) or a region of a shared frame buffer here.
///
/// ```swift
/// let image = VisionImage(image: try FrameImage(contentsOf: photoURL))
/// image.orientation = .right
/// ```
public final class VisionImage {
    /// The pixels.
    public let image: FrameImage
    /// The turn that makes the pixels upright (`.up` by default); results
    /// refer to the upright image.
    public var orientation = ImageOrientation.up
    /// The Firebase-era orientation; when set, it is the one used.
    public var metadata: VisionImageMetadata?

    /// An image of `image`'s pixels.
    public init(image: FrameImage) {
        self.image = image
    }

    /// A camera frame's pixels, as ML Kit's `VisionImage(buffer:)` takes a
    /// sample buffer: typically a region of a shared frame buffer.
    public convenience init(buffer: FrameImage) {
        self.init(image: buffer)
    }

    /// The JPEG file at `url`.
    ///
    /// - Throws: what reading the file throws.
    public convenience init(contentsOf url: URL) throws {
        self.init(image: try FrameImage(contentsOf: url))
    }

    /// A JPEG file's bytes.
    public convenience init(jpegData: Data) {
        self.init(image: FrameImage(jpeg: jpegData))
    }

    /// Uncompressed pixels; `rowStride` 0 means rows tightly packed.
    public convenience init(pixels: Data, format: PixelFormat, width: Int, height: Int, rowStride: Int = 0) {
        self.init(image: FrameImage(pixels: pixels, format: format, width: width, height: height, rowStride: rowStride))
    }

    /// The orientation in effect.
    var effectiveOrientation: ImageOrientation {
        metadata.flatMap { ImageOrientation(exifValue: $0.orientation.rawValue) } ?? orientation
    }
}
