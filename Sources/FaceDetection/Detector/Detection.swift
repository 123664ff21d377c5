/// A face found by the BlazeFace detector, in normalized coordinates of the
/// image it was run on: box corners and the six keypoints as fractions of
/// width and height.
package struct Detection: Sendable, Hashable {
    /// The detector's confidence, in [0, 1].
    package var score: Float
    package var xMin: Float
    package var yMin: Float
    package var xMax: Float
    package var yMax: Float
    /// MediaPipe's six keypoints, in its order: right eye, left eye, nose tip,
    /// mouth centre, right ear tragion, left ear tragion. "Right" is the
    /// subject's right, which is on the image's left for an upright face.
    package var keypoints: [NormalizedLandmark]

    /// Creates a detection.
    package init(score: Float, xMin: Float, yMin: Float, xMax: Float, yMax: Float, keypoints: [NormalizedLandmark]) {
        self.score = score
        self.xMin = xMin
        self.yMin = yMin
        self.xMax = xMax
        self.yMax = yMax
        self.keypoints = keypoints
    }

    /// Box width as a fraction of the image width.
    package var width: Float { xMax - xMin }
    /// Box height as a fraction of the image height.
    package var height: Float { yMax - yMin }
    /// Box area in normalized units.
    var area: Float { max(0, width) * max(0, height) }

    /// Intersection over union of the two boxes, 0 when they do not overlap.
    func intersectionOverUnion(with other: Detection) -> Float {
        let width = min(xMax, other.xMax) - max(xMin, other.xMin)
        let height = min(yMax, other.yMax) - max(yMin, other.yMin)
        guard width > 0, height > 0 else { return 0 }
        let intersection = width * height
        let union = area + other.area - intersection
        return union > 0 ? intersection / union : 0
    }
}
