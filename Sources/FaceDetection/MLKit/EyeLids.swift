/// The lid geometry of one eye in mesh indices, for the eye aspect ratio.
struct EyeLids: Sendable {
    /// The eye's two corners.
    let corners: (Int, Int)
    /// Points facing each other across the eye, upper lid first: the middle three of MediaPipe's
    /// lid chains, which stay clear of the corners where the lids always meet.
    let openings: [(upper: Int, lower: Int)]

    /// The subject's left eye (the image's right for an upright face).
    static let subjectLeft = EyeLids(corners: (362, 263), openings: [(385, 380), (386, 374), (387, 373)])
    /// The subject's right eye.
    static let subjectRight = EyeLids(corners: (133, 33), openings: [(158, 153), (159, 145), (160, 144)])

    /// The eye aspect ratio: the mean gap between the lids over the eye's width (Soukupová and
    /// Čech, "Real-Time Eye Blink Detection using Facial Landmarks", 2016). It is a ratio of
    /// lengths, so it does not change with the face's size or its rotation in the image; measured
    /// on the metric face it barely changes when the head turns either. 0 when the lids touch.
    func aspectRatio<Points: FacePoints>(of face: Points) -> Float {
        let width = face.distance(corners.0, corners.1)
        guard width > 0 else { return 0 }
        var gap: Float = 0
        for opening in openings {
            gap += face.distance(opening.upper, opening.lower)
        }
        return gap / Float(openings.count) / width
    }
}
