import Foundation
import ModelFile

/// MediaPipe's `Landmarks2TransformMatrix` custom operator, version 2: from a
/// set of landmarks, the affine matrix that maps an `outputWidth` x
/// `outputHeight` crop onto the rectangle around a subset of them, turned so
/// the line between two of them is level and scaled by `scaleX`, `scaleY`.
///
/// The attention mesh uses it to place its lips and eye crops on the trunk's
/// feature map. The result is a 4x4 row-major matrix whose top two rows are
/// the affine map from crop pixels to landmark units.
package struct LandmarksToTransformMatrix: Sendable, Equatable {
    /// Landmarks in the input.
    package let landmarkCount: Int
    /// Values per landmark (x and y are read, the rest ignored).
    package let dimensions: Int
    /// The landmark on the left end of the line that is turned level.
    package let leftRotationIndex: Int
    /// The landmark on the right end of that line.
    package let rightRotationIndex: Int
    /// The landmarks whose rotated bounding box the crop covers.
    package let subset: [Int]
    package let outputWidth: Int
    package let outputHeight: Int
    package let scaleX: Float
    package let scaleY: Float
    /// The angle, in radians, the line is turned to.
    package let targetRotation: Float

    /// Reads the operator's FlexBuffer options and checks them and the shapes:
    /// landmarks `[1, N, D]` with D ≥ 2, output `[1, 4, 4]`, every index in `0..<N`.
    package init(options: FlexValue, inputShapes: [[Int]], outputShapes: [[Int]]) throws(HostOperationError) {
        guard inputShapes.count == 1, outputShapes.count == 1 else {
            throw HostOperationError("needs 1 input (landmarks) and 1 output, got \(inputShapes.count) and \(outputShapes.count)")
        }
        let shape = inputShapes[0]
        guard shape.count == 3, shape[0] == 1, shape[1] > 0, shape[2] >= 2 else {
            throw HostOperationError("landmarks have shape \(shape); expected [1, N, D] with D of at least 2")
        }
        guard outputShapes[0] == [1, 4, 4] else {
            throw HostOperationError("output has shape \(outputShapes[0]); expected [1, 4, 4]")
        }
        guard case .map(let values) = options else {
            throw HostOperationError("options are not a FlexBuffer map")
        }
        let count = shape[1]
        func integer(_ key: String) throws(HostOperationError) -> Int {
            guard let value = values[key]?.integer else { throw HostOperationError("option \(key) is missing or not an integer") }
            return value
        }
        func number(_ key: String) throws(HostOperationError) -> Float {
            guard let value = values[key]?.number else { throw HostOperationError("option \(key) is missing or not a number") }
            return Float(value)
        }
        func index(_ key: String) throws(HostOperationError) -> Int {
            let value = try integer(key)
            guard (0..<count).contains(value) else {
                throw HostOperationError("option \(key) is \(value), outside the \(count) landmarks")
            }
            return value
        }
        landmarkCount = count
        dimensions = shape[2]
        leftRotationIndex = try index("left_rotation_idx")
        rightRotationIndex = try index("right_rotation_idx")
        outputWidth = try integer("output_width")
        outputHeight = try integer("output_height")
        scaleX = try number("scale_x")
        scaleY = try number("scale_y")
        targetRotation = try number("target_rotation_radians")
        guard outputWidth > 0, outputHeight > 0 else {
            throw HostOperationError("output size \(outputWidth)x\(outputHeight) must be positive")
        }
        guard scaleX > 0, scaleY > 0, targetRotation.isFinite else {
            throw HostOperationError("scale \(scaleX), \(scaleY) must be positive and the target rotation finite")
        }
        guard let elements = values["subset_idxs"]?.elements, !elements.isEmpty else {
            throw HostOperationError("option subset_idxs is missing or empty")
        }
        var subset: [Int] = []
        for element in elements {
            guard let value = element.integer, (0..<count).contains(value) else {
                throw HostOperationError("option subset_idxs holds \(element), outside the \(count) landmarks")
            }
            subset.append(value)
        }
        self.subset = subset
    }

    /// Writes the 16 floats of the matrix for `landmarks` (`landmarkCount * dimensions` floats).
    package func run(landmarks: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>) {
        func point(_ index: Int) -> (x: Float, y: Float) {
            (landmarks[index * dimensions], landmarks[index * dimensions + 1])
        }
        let left = point(leftRotationIndex), right = point(rightRotationIndex)
        let rotation = targetRotation - atan2f(right.y - left.y, right.x - left.x)
        let cosR = cosf(rotation), sinR = sinf(rotation)

        var minX = Float.infinity, minY = Float.infinity, maxX = -Float.infinity, maxY = -Float.infinity
        for index in subset {
            let p = point(index)
            let x = p.x * cosR - p.y * sinR
            let y = p.x * sinR + p.y * cosR
            minX = min(minX, x); maxX = max(maxX, x)
            minY = min(minY, y); maxY = max(maxY, y)
        }
        let middleX = (maxX + minX) / 2, middleY = (maxY + minY) / 2
        let centerX = middleX * cosR + middleY * sinR
        let centerY = -middleX * sinR + middleY * cosR
        let sx = scaleX * (maxX - minX) / Float(outputWidth)
        let sy = scaleY * (maxY - minY) / Float(outputHeight)

        // The crop is turned back by the rotation the subset was levelled with.
        let cosT = cosf(-rotation), sinT = sinf(-rotation)
        let halfWidth = Float(outputWidth) / 2, halfHeight = Float(outputHeight) / 2
        output.update(repeating: 0)
        output[0] = sx * cosT
        output[1] = -sy * sinT
        output[3] = centerX - halfWidth * sx * cosT + halfHeight * sy * sinT
        output[4] = sx * sinT
        output[5] = sy * cosT
        output[7] = centerY - halfWidth * sx * sinT - halfHeight * sy * cosT
        output[10] = 1
        output[15] = 1
    }
}
