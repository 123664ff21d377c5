/// How a stored image must be turned to be upright: the 8 EXIF orientation
/// values, named as ML Kit's `VisionDetectorImageOrientation` names them.
///
/// Convention (EXIF / TIFF tag 274): each name says where the stored image's
/// row 0 and column 0 appear when the image is viewed upright. `topLeft` (1)
/// means row 0 is the visual top and column 0 the visual left, i.e. the image is
/// already upright; `rightTop` (6) means row 0 is the visual right side and
/// column 0 the visual top, so the stored image must be rotated 90° clockwise
/// (the usual phone portrait shot from a landscape sensor).
///
/// Every coordinate the pipeline reports is in the upright image, which is
/// `width x height` of the stored image for 1...4 and `height x width` for 5...8.
package enum ImageOrientation: Int, Sendable, Hashable, CaseIterable {
    /// Upright already: row 0 at the top, column 0 on the left.
    case topLeft = 1
    /// Mirrored horizontally: row 0 at the top, column 0 on the right.
    case topRight = 2
    /// Rotated 180°: row 0 at the bottom, column 0 on the right.
    case bottomRight = 3
    /// Mirrored vertically: row 0 at the bottom, column 0 on the left.
    case bottomLeft = 4
    /// Transposed (mirrored across the main diagonal): row 0 on the left,
    /// column 0 at the top.
    case leftTop = 5
    /// Needs a 90° clockwise rotation: row 0 on the right, column 0 at the top.
    case rightTop = 6
    /// Transverse (mirrored across the anti-diagonal): row 0 on the right,
    /// column 0 at the bottom.
    case rightBottom = 7
    /// Needs a 90° counter-clockwise rotation: row 0 on the left, column 0 at
    /// the bottom.
    case leftBottom = 8

    /// Whether the upright image's width is the stored image's height.
    package var swapsAxes: Bool { rawValue >= 5 }

    /// The size of the upright image for a stored image of `storedSize`.
    package func uprightSize(of storedSize: PixelSize) -> PixelSize {
        swapsAxes ? PixelSize(width: storedSize.height, height: storedSize.width) : storedSize
    }
}
