/// A checked frame and the orientation it is stored in, seen as the upright
/// image: what every model input is sampled from.
///
/// Sampling reads the stored bytes in place: the orientation is folded into
/// the reads (upright coordinates to stored ones) and each neighbour is
/// converted to RGB as it is fetched, so no upright or RGB copy is made. The
/// tensors are bit for bit those of converting the whole frame to RGB,
/// turning it upright and sampling that.
///
/// A frame may hold only part of its stored image (``DecodedPart``): then
/// only tensors whose every read falls in ``region`` can be sampled, and
/// ``holdsPixels(sampledBy:width:height:)`` says which.
package struct OrientedFrame {
    /// The stored pixels in memory: the whole image, or the part of it from
    /// `origin` on.
    package let view: RawFrameView
    /// How the stored pixels must be turned to be upright.
    package let orientation: ImageOrientation
    /// The stored image's size, of which `view` may hold only part.
    let storedSize: PixelSize
    /// The stored pixel at `view`'s first byte.
    let origin: (column: Int, row: Int)
    /// The stored pixels that may be sampled: the whole image, or those of a
    /// part that are exactly as a whole decode gives them.
    package let region: PixelRegion

    /// The frame `view`, stored in `orientation`.
    package init(_ view: RawFrameView, orientation: ImageOrientation) {
        self.view = view
        self.orientation = orientation
        storedSize = view.size
        origin = (0, 0)
        region = PixelRegion(view.size)
    }

    /// Part of a stored image of `storedSize`: `view` holds its pixels from
    /// `origin` on, and those in `region` may be sampled.
    init(part view: RawFrameView, origin: (column: Int, row: Int), region: PixelRegion, storedSize: PixelSize,
         orientation: ImageOrientation) {
        precondition(
            PixelRegion(columns: origin.column..<origin.column + view.width, rows: origin.row..<origin.row + view.height)
                .contains(region) && PixelRegion(storedSize).contains(region),
            "region \(region) lies outside the \(view.size) pixels held from \(origin) or the \(storedSize) image")
        self.view = view
        self.orientation = orientation
        self.storedSize = storedSize
        self.origin = origin
        self.region = region
    }

    /// The upright image's dimensions, which every coordinate refers to.
    package var size: PixelSize { orientation.uprightSize(of: storedSize) }

    /// Whether the frame holds every stored pixel that sampling a
    /// `width x height` tensor through `transform` may read: always, unless
    /// it holds only part of the image.
    package func holdsPixels(sampledBy transform: AffineTransform, width: Int, height: Int) -> Bool {
        region.area == storedSize.width * storedSize.height
            || region.contains(orientation.storedRegion(of: transform.sampledRegion(width: width, height: height, in: size),
                                                        storedSize: storedSize))
    }

    /// Resamples the upright image through `transform` into a float tensor,
    /// exactly as ``RGBImage/sampleTensor(width:height:transform:border:valueRange:into:rows:)``
    /// does on the upright RGB image (see there for every parameter).
    package func sampleTensor(
        width: Int, height: Int, transform: AffineTransform, border: BorderMode,
        valueRange: ClosedRange<Float>, into output: UnsafeMutableBufferPointer<Float>, rows: Range<Int>? = nil
    ) {
        precondition(width > 0 && height > 0, "tensor size \(width)x\(height) is empty")
        let rows = rows ?? 0..<height
        precondition(rows.lowerBound >= 0 && rows.upperBound <= height, "rows \(rows) lie outside the tensor's \(height) rows")
        precondition(
            output.count >= width * height * 3,
            "tensor buffer holds \(output.count) floats, \(width)x\(height)x3 needs \(width * height * 3)"
        )
        precondition(holdsPixels(sampledBy: transform, width: width, height: height),
                     "the tensor reads pixels outside the decoded \(region) of the \(storedSize) image")
        guard let destination = output.baseAddress else { return }
        let map = OrientationMap(orientation, storedWidth: storedSize.width, storedHeight: storedSize.height, origin: origin)
        let upright = size
        func run<Source: StoredPixels>(_ source: Source, packedRGB: PackedRGBRows?) {
            BilinearSampler(
                source: source, map: map, sourceWidth: upright.width, sourceHeight: upright.height, border: border,
                packedRGB: packedRGB
            ).sample(transform: transform, width: width, rows: rows, valueRange: valueRange, into: destination)
        }
        switch view.format {
        case .rgb:
            // The SIMD run path reads upright rows of R, G, B bytes in place: stored RGB that needs no turning.
            run(PackedPixels(view), packedRGB: orientation == .topLeft ? PackedRGBRows(base: view.base, rowStride: view.rowStride, origin: origin) : nil)
        case .rgba, .bgra, .bgr, .gray8:
            run(PackedPixels(view), packedRGB: nil)
        case .nv12, .nv21, .i420:
            run(YUVPixels(view), packedRGB: nil)
        }
    }
}
