import FaceWorkerClient
import Foundation

/// An image for a task (MediaPipe's `MPImage`): where UIKit, CoreVideo and
/// CoreMedia images are on iOS, a file, JPEG bytes, uncompressed pixels
/// (NV12 and I420 included) or a region of a shared frame buffer here, with
/// the orientation that makes it upright.
///
/// ```swift
/// let image = try MPImage(contentsOf: URL(fileURLWithPath: "photo.jpg"))
/// let frame = MPImage(pixels: nv12, format: .nv12, width: 1280, height: 720, orientation: .right)
/// ```
public final class MPImage: Sendable {
    /// The pixels.
    public let image: FrameImage
    /// The turn that makes the image upright; results refer to the upright
    /// image.
    public let orientation: ImageOrientation

    /// An image of `image`'s pixels.
    public init(image: FrameImage, orientation: ImageOrientation = .up) {
        self.image = image
        self.orientation = orientation
    }

    /// The JPEG file at `url`.
    ///
    /// - Throws: what reading the file throws.
    public convenience init(contentsOf url: URL, orientation: ImageOrientation = .up) throws {
        self.init(image: try FrameImage(contentsOf: url), orientation: orientation)
    }

    /// A JPEG file's bytes.
    public convenience init(jpegData: Data, orientation: ImageOrientation = .up) {
        self.init(image: FrameImage(jpeg: jpegData), orientation: orientation)
    }

    /// Uncompressed pixels; `rowStride` 0 means rows tightly packed.
    public convenience init(pixels: Data, format: PixelFormat, width: Int, height: Int, rowStride: Int = 0, orientation: ImageOrientation = .up) {
        self.init(image: FrameImage(pixels: pixels, format: format, width: width, height: height, rowStride: rowStride), orientation: orientation)
    }

    /// The stored width in pixels, before the orientation; nil for a JPEG
    /// in a shared buffer, or bytes that are not a JPEG file.
    public var width: Int? { image.pixelSize?.width }
    /// The stored height in pixels, before the orientation; nil as `width`.
    public var height: Int? { image.pixelSize?.height }
}
