import Imaging

/// MediaPipe's landmarks smoothing as the Face Landmarker configures it in
/// stream modes with one face: a one-euro filter per coordinate of every
/// point (min cutoff 0.05, beta 80, derivative cutoff 1), run in image pixels
/// (z scaled by the width, as MediaPipe converts it), the speed scaled by the
/// inverse of the face's size (the mean of its pixel extent in x and y).
///
/// `reset()` on a frame without the face, as MediaPipe resets on empty input.
struct LandmarksSmoother: Sendable {
    private var filters: [OneEuroFilter] = []

    static let frequency = 30.0, minCutoff = 0.05, beta = 80.0, derivateCutoff = 1.0
    /// Below this size (pixels) MediaPipe passes the points through unsmoothed.
    static let minObjectScale: Float = 1e-6

    /// Forgets the face.
    mutating func reset() {
        filters = []
    }

    /// The smoothed points of the face at `timestampMs`.
    mutating func smooth(_ mesh: [NormalizedLandmark], timestampMs: Int64, image: PixelSize) -> [NormalizedLandmark] {
        let width = Float(image.width), height = Float(image.height)
        if filters.count != 3 * mesh.count {
            filters = Array(repeating: OneEuroFilter(frequency: Self.frequency, minCutoff: Self.minCutoff, beta: Self.beta,
                                                     derivateCutoff: Self.derivateCutoff), count: 3 * mesh.count)
        }
        var xMin = Float.infinity, xMax = -Float.infinity, yMin = Float.infinity, yMax = -Float.infinity
        for point in mesh {
            xMin = min(xMin, point.x * width); xMax = max(xMax, point.x * width)
            yMin = min(yMin, point.y * height); yMax = max(yMax, point.y * height)
        }
        let scale = ((xMax - xMin) + (yMax - yMin)) / 2
        guard scale >= Self.minObjectScale else { return mesh }
        let valueScale = Double(1 / scale)
        // MediaPipe's timestamps are microseconds; the filter reads nanoseconds.
        let time = timestampMs * 1_000_000
        return mesh.enumerated().map { index, point in
            let x = filters[3 * index].apply(point.x * width, timestampNs: time, valueScale: valueScale)
            let y = filters[3 * index + 1].apply(point.y * height, timestampNs: time, valueScale: valueScale)
            let z = filters[3 * index + 2].apply(point.z * width, timestampNs: time, valueScale: valueScale)
            return NormalizedLandmark(x: x / width, y: y / height, z: z / width)
        }
    }
}
