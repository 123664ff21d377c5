/// The eye-open probability, from the eye aspect ratio (see `EyeLids`).
///
/// Calibration: the ratio is taken relative to the canonical face's (MediaPipe's model of a
/// neutral face with relaxed, open eyes; 0.239 for both eyes), so a relaxed open eye measures
/// about 1 and a closed one 0. In the blink-detection literature an eye counts as closed below an
/// aspect ratio of about 0.2 when it measures about 0.3 open (Soukupová and Čech, 2016), i.e. at
/// two thirds of its open value; the midpoint is set a little lower, at 0.6, so that a relaxed or
/// slightly narrowed open eye stays well above 0.5. A slope of 10 then gives the relaxed open eye
/// 0.98, an eye at 0.3 of it 0.05, and a closed eye under 0.01. Wide-open eyes measure more than
/// 1 (about 1.3 on the astronaut photograph) and come out at 1.
enum EyeOpenProbability {
    /// The canonical face's eye aspect ratio; both eyes are equal, the model being symmetric.
    static let relaxedAspectRatio = EyeLids.subjectLeft.aspectRatio(of: CanonicalFace())

    static let curve = LogisticCurve(midpoint: 0.6, slope: 10)

    /// The probability that an eye with the given lids is open.
    static func probability<Points: FacePoints>(of lids: EyeLids, in face: Points) -> Float {
        curve.probability(at: lids.aspectRatio(of: face) / relaxedAspectRatio)
    }
}
