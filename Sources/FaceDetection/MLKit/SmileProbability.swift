/// The smiling probability, from how much wider the mouth is and how much higher its corners sit
/// than on a neutral face (see `SmileGeometry`).
///
/// Calibration: the neutral reference is the canonical face (MediaPipe's model of a neutral face,
/// mouth closed and relaxed). The scale of each measure is a broad smile: on the astronaut
/// photograph that the test images include (a broad, open smile), measured in the metric face,
/// MediaPipe's mesh has a mouth 30 % wider than the canonical face's (29 % on the mirror image)
/// and corners lifted by 0.13 eye-corner distances, so those are the broad-smile values. Each
/// measure divided by its broad-smile value is 0 on a neutral face and about 1 on a broad smile;
/// their sum is the smile score, 0 neutral and about 2 broad. The curve is centred at 1 (one
/// measure fully there, or both half way) with slope 3: a neutral face scores 0.05, a broad
/// smile 0.95.
enum SmileProbability {
    static let neutral = SmileGeometry(of: CanonicalFace())
    static let broadSmileWidthGain: Float = 0.3
    static let broadSmileCornerLift: Float = 0.13
    static let curve = LogisticCurve(midpoint: 1, slope: 3)

    /// The probability that a face with these mouth measures is smiling.
    static func probability(of mouth: SmileGeometry) -> Float {
        let widening = (mouth.widthRatio / neutral.widthRatio - 1) / broadSmileWidthGain
        let lift = (mouth.cornerLift - neutral.cornerLift) / broadSmileCornerLift
        return curve.probability(at: widening + lift)
    }
}
