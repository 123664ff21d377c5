/// MediaPipe's `TransformTensorBilinear` custom operator, version 2: an
/// affine resampling of a feature map, used by the attention mesh to crop the
/// lips and eyes out of the trunk's 48x48 features.
///
/// Output pixel (u, v) reads the input at (X, Y) = T·(u + ½, v + ½) − (½, ½),
/// with T the top two rows of the matrix (pixel centres at integer + ½ on both
/// sides). A position outside [0, W−1] x [0, H−1] gives zeros in every
/// channel; inside, the four neighbours are blended bilinearly, and a
/// neighbour past the last row or column (weight zero) reads zero. The output
/// size comes from the output tensor's shape, as on MediaPipe's CPU kernel,
/// which parses but ignores the operator's size options.
package struct TransformTensorBilinear: Sendable, Equatable {
    package let inputHeight: Int
    package let inputWidth: Int
    package let outputHeight: Int
    package let outputWidth: Int
    package let channels: Int

    /// Checks the operand shapes: a `[1, H, W, C]` input, a `[1, 4, 4]` matrix and a `[1, h, w, C]` output.
    package init(inputShapes: [[Int]], outputShapes: [[Int]]) throws(HostOperationError) {
        guard inputShapes.count == 2, outputShapes.count == 1 else {
            throw HostOperationError("needs 2 inputs (features, matrix) and 1 output, got \(inputShapes.count) and \(outputShapes.count)")
        }
        let input = inputShapes[0], output = outputShapes[0]
        guard input.count == 4, input[0] == 1, input.dropFirst().allSatisfy({ $0 > 0 }) else {
            throw HostOperationError("features have shape \(input); expected [1, H, W, C]")
        }
        guard inputShapes[1] == [1, 4, 4] else {
            throw HostOperationError("matrix has shape \(inputShapes[1]); expected [1, 4, 4]")
        }
        guard output.count == 4, output[0] == 1, output[1] > 0, output[2] > 0, output[3] == input[3] else {
            throw HostOperationError("output has shape \(output); expected [1, h, w, \(input[3])]")
        }
        inputHeight = input[1]
        inputWidth = input[2]
        outputHeight = output[1]
        outputWidth = output[2]
        channels = input[3]
    }

    /// Fills `output` (`outputHeight * outputWidth * channels` floats, NHWC) from `input` through `matrix` (16 floats, row-major).
    package func run(input: UnsafeBufferPointer<Float>, matrix: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>) {
        let m0 = matrix[0], m1 = matrix[1], m4 = matrix[4], m5 = matrix[5]
        let m3 = matrix[3] + 0.5 * m0 + 0.5 * m1 - 0.5
        let m7 = matrix[7] + 0.5 * m4 + 0.5 * m5 - 0.5
        let maxX = Float(inputWidth - 1), maxY = Float(inputHeight - 1)
        let channels = self.channels, rowStride = inputWidth * channels
        let source = input.baseAddress!
        var destination = output.baseAddress!
        for v in 0..<outputHeight {
            for u in 0..<outputWidth {
                let x = m0 * Float(u) + m1 * Float(v) + m3
                let y = m4 * Float(u) + m5 * Float(v) + m7
                guard x >= 0, x <= maxX, y >= 0, y <= maxY else {
                    destination.update(repeating: 0, count: channels)
                    destination += channels
                    continue
                }
                let x0 = Int(x), y0 = Int(y)
                let fx = x - Float(x0), fy = y - Float(y0)
                // At the last column or row the far neighbour has weight zero; it reads as zero, never past the map.
                let hasRight = x0 + 1 < inputWidth, hasBelow = y0 + 1 < inputHeight
                let topLeft = source + y0 * rowStride + x0 * channels
                for channel in 0..<channels {
                    let q00 = topLeft[channel]
                    let q01 = hasRight ? topLeft[channels + channel] : 0
                    let q10 = hasBelow ? topLeft[rowStride + channel] : 0
                    let q11 = hasRight && hasBelow ? topLeft[rowStride + channels + channel] : 0
                    let top = (1 - fx) * q00 + fx * q01
                    let bottom = (1 - fx) * q10 + fx * q11
                    destination[channel] = (1 - fy) * top + fy * bottom
                }
                destination += channels
            }
        }
    }
}
