import Foundation

/// The logistic function 1 / (1 + e^(−slope · (x − midpoint))), which maps a geometric measure to
/// a probability: 0.5 at the midpoint, steeper with a larger slope.
struct LogisticCurve: Sendable {
    /// The measure at which the probability is 0.5.
    let midpoint: Float
    /// How fast the probability rises with the measure.
    let slope: Float

    /// The probability for a measure.
    func probability(at x: Float) -> Float {
        1 / (1 + exp(-slope * (x - midpoint)))
    }
}
