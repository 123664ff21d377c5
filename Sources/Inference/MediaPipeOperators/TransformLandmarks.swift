/// MediaPipe's `TransformLandmarks` custom operator, version 2: each 2-D point
/// through the top two rows of a 4x4 matrix, as the homogeneous point
/// (x, y, 0, 1), so the matrix's z column never contributes.
package struct TransformLandmarks: Sendable, Equatable {
    /// Points per call.
    package let count: Int
    /// Values per point in the tensor (2 for the attention mesh; a third is copied unchanged).
    package let dimensions: Int

    /// Checks the operand shapes: points `[1, N, D]` with D of 2 or 3, a `[1, 4, 4]` matrix, output shaped like the points.
    package init(inputShapes: [[Int]], outputShapes: [[Int]]) throws(HostOperationError) {
        guard inputShapes.count == 2, outputShapes.count == 1 else {
            throw HostOperationError("needs 2 inputs (points, matrix) and 1 output, got \(inputShapes.count) and \(outputShapes.count)")
        }
        let points = inputShapes[0]
        guard points.count == 3, points[0] == 1, [2, 3].contains(points[2]), points[1] > 0 else {
            throw HostOperationError("points have shape \(points); expected [1, N, 2] or [1, N, 3]")
        }
        guard inputShapes[1] == [1, 4, 4] else {
            throw HostOperationError("matrix has shape \(inputShapes[1]); expected [1, 4, 4]")
        }
        guard outputShapes[0] == points else {
            throw HostOperationError("output has shape \(outputShapes[0]); expected the points' shape \(points)")
        }
        count = points[1]
        dimensions = points[2]
    }

    /// Writes the transformed points; `landmarks` and `output` hold `count * dimensions` floats, `matrix` 16 (row-major).
    package func run(landmarks: UnsafeBufferPointer<Float>, matrix: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>) {
        let m0 = matrix[0], m1 = matrix[1], m3 = matrix[3]
        let m4 = matrix[4], m5 = matrix[5], m7 = matrix[7]
        for point in 0..<count {
            let base = point * dimensions
            let x = landmarks[base], y = landmarks[base + 1]
            output[base] = m0 * x + m1 * y + m3
            output[base + 1] = m4 * x + m5 * y + m7
            if dimensions == 3 { output[base + 2] = landmarks[base + 2] }
        }
    }
}
