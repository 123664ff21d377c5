/// What the Face Landmarker carries from one video frame to the next: the
/// regions its landmarks give for the next frame (MediaPipe's loopback of
/// `FACE_RECTS_NEXT_FRAME`) and the smoothing filters.
struct LandmarkerLoop: Sendable {
    /// A region to run the mesh on, with what is known of its face.
    struct Rect: Sendable {
        var roi: RegionOfInterest
        /// The tracking ID of the face it follows, when it follows one.
        var trackID: Int?
        /// The detection it was made from, on a frame where the detector found it.
        var detection: Detection?
        /// The detector score the face was last seen with.
        var score: Float
    }

    var rects: [Rect] = []
    var smoother = LandmarksSmoother()

    /// MediaPipe's rect association: the inputs' rects in order, each one
    /// removing every rect before it that it overlaps (axis-aligned IoU, rotation
    /// ignored) by more than `threshold`, and taking over its tracking ID.
    /// So a detection replaces the tracked rect of its face, tracked rects that
    /// no detection overlaps stay first, and new faces come last.
    static func associate(_ inputs: [[Rect]], threshold: Float) -> [Rect] {
        var result: [Rect] = []
        for input in inputs {
            for var rect in input {
                result.removeAll { earlier in
                    guard earlier.roi.intersectionOverUnion(with: rect.roi) > threshold else { return false }
                    rect.trackID = rect.trackID ?? earlier.trackID
                    return true
                }
                result.append(rect)
            }
        }
        return result
    }
}
