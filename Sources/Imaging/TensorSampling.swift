extension RGBImage {
    /// Resamples the image through `transform` into a float tensor: the one
    /// routine behind every model input (letterboxed detector input, rotated
    /// face and eye crops).
    ///
    /// Output pixel `(u, v)` (`0 <= u < width`, `0 <= v < height`) reads the
    /// source at `transform.apply(x: u, y: v)`, integer source coordinates being
    /// pixel centres. Interpolation reproduces OpenCV's `INTER_LINEAR` on 8-bit
    /// images, as MediaPipe runs it before converting to float: the source
    /// position is rounded to 1/32 pixel (to nearest, ties to even), the four
    /// neighbours are weighted by the integer products of those 32nds, and the
    /// result is rounded to an 8-bit value `q`. Each channel is then written as
    /// `Float(q) * (hi - lo) / 255 + lo` for `valueRange = lo...hi`.
    ///
    /// The tensor is NHWC with N = 1: `output[(v * width + u) * 3 + c]`, channels
    /// R, G, B. Nothing is allocated per pixel. Positions that are not finite
    /// or lie more than 2^25 pixels away count as outside the image, so a
    /// degenerate transform yields border values rather than a trap.
    ///
    /// - Parameters:
    ///   - width: output columns, positive.
    ///   - height: output rows, positive.
    ///   - transform: maps output pixel coordinates to source pixel coordinates.
    ///   - border: what positions outside the image read.
    ///   - valueRange: the tensor value of 8-bit 0 (lower bound) and 255 (upper bound).
    ///   - output: at least `width * height * 3` floats; the first
    ///     `width * height * 3` are overwritten.
    ///   - rows: the rows to write, all by default; the others are left as
    ///     they are, so threads may each fill a part of one tensor.
    package func sampleTensor(
        width: Int, height: Int, transform: AffineTransform, border: BorderMode,
        valueRange: ClosedRange<Float>, into output: UnsafeMutableBufferPointer<Float>, rows: Range<Int>? = nil
    ) {
        withView { view in
            OrientedFrame(view, orientation: .topLeft).sampleTensor(
                width: width, height: height, transform: transform, border: border, valueRange: valueRange,
                into: output, rows: rows
            )
        }
    }

    /// Resamples the image into a float array, exactly as the
    /// `UnsafeMutableBufferPointer` variant does.
    ///
    /// - Parameter output: must hold exactly `width * height * 3` floats.
    package func sampleTensor(
        width: Int, height: Int, transform: AffineTransform, border: BorderMode,
        valueRange: ClosedRange<Float>, into output: inout [Float]
    ) {
        precondition(
            output.count == width * height * 3,
            "tensor array holds \(output.count) floats, \(width)x\(height)x3 needs \(width * height * 3)"
        )
        output.withUnsafeMutableBufferPointer { buffer in
            sampleTensor(
                width: width, height: height, transform: transform, border: border,
                valueRange: valueRange, into: buffer
            )
        }
    }
}
