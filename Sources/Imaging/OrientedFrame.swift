/// A checked frame and the orientation it is stored in, seen as the upright
/// image: what every model input is sampled from.
///
/// Sampling reads the stored bytes in place: the orientation is folded into
/// the reads (upright coordinates to stored ones) and each neighbour is
/// converted to RGB as it is fetched, so no upright or RGB copy is made. The
/// tensors are bit for bit those of converting the whole frame to RGB,
/// turning it upright and sampling that.
package struct OrientedFrame {
    /// The stored pixels.
    package let view: RawFrameView
    /// How the stored pixels must be turned to be upright.
    package let orientation: ImageOrientation

    /// The frame `view`, stored in `orientation`.
    package init(_ view: RawFrameView, orientation: ImageOrientation) {
        self.view = view
        self.orientation = orientation
    }

    /// The upright image's dimensions, which every coordinate refers to.
    package var size: PixelSize { orientation.uprightSize(of: view.size) }

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
        guard let destination = output.baseAddress else { return }
        let map = OrientationMap(orientation, storedWidth: view.width, storedHeight: view.height)
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
            run(PackedPixels(view), packedRGB: orientation == .topLeft ? PackedRGBRows(base: view.base, rowStride: view.rowStride) : nil)
        case .rgba, .bgra, .bgr, .gray8:
            run(PackedPixels(view), packedRGB: nil)
        case .nv12, .nv21, .i420:
            run(YUVPixels(view), packedRGB: nil)
        }
    }
}
