import Foundation

/// The one-euro filter (Casiez, Roussel and Vogel, CHI 2012) as MediaPipe
/// 0.10.14's `OneEuroFilter` runs it, so smoothed landmarks equal MediaPipe
/// Tasks' in video mode.
///
/// The cutoff rises with the smoothed speed of the value: still points are
/// smoothed hard, moving ones followed closely. What MediaPipe does and a
/// textbook filter might not: the sampling frequency comes from the gap
/// between timestamps (nanoseconds), except when either is 0, when the last
/// frequency stays (the configured one at first); a timestamp not after the
/// last one passes the value through and leaves the filter untouched; the
/// speed is scaled by `valueScale` (the inverse of the object's size); the
/// low-pass state is kept in `Float`.
struct OneEuroFilter: Sendable {
    private var frequency: Double
    private let minCutoff: Double
    private let beta: Double
    private let derivateCutoff: Double
    /// Nil before the first value.
    private var lastTime: Int64?
    private var value = LowPassFilter()
    private var speed = LowPassFilter()

    init(frequency: Double, minCutoff: Double, beta: Double, derivateCutoff: Double) {
        self.frequency = frequency
        self.minCutoff = minCutoff
        self.beta = beta
        self.derivateCutoff = derivateCutoff
    }

    /// The filtered value at `timestampNs`.
    mutating func apply(_ input: Float, timestampNs: Int64, valueScale: Double) -> Float {
        // The first value only initializes the low-pass filters, whatever the frequency.
        if let lastTime {
            guard lastTime < timestampNs else { return input }
            if lastTime != 0 && timestampNs != 0 {
                frequency = 1.0 / (Double(timestampNs - lastTime) * 1e-9)
            }
        }
        lastTime = timestampNs
        let change = value.lastRaw.map { (Double(input) - Double($0)) * valueScale * frequency } ?? 0
        let smoothedChange = speed.apply(Float(change), alpha: alpha(cutoff: derivateCutoff))
        let cutoff = minCutoff + beta * abs(Double(smoothedChange))
        return value.apply(input, alpha: alpha(cutoff: cutoff))
    }

    private func alpha(cutoff: Double) -> Float {
        let period = 1.0 / frequency
        let tau = 1.0 / (2 * Double.pi * cutoff)
        return Float(1.0 / (1.0 + tau / period))
    }
}

/// An exponential moving average whose weight is given with every value,
/// remembering the last raw input; MediaPipe's `LowPassFilter`.
struct LowPassFilter: Sendable {
    private(set) var lastRaw: Float?
    private var stored: Float = 0

    mutating func apply(_ input: Float, alpha: Float) -> Float {
        // MediaPipe weighs the stored value by the double (1.0 - alpha).
        let result = lastRaw == nil ? input : Float(Double(alpha * input) + (1.0 - Double(alpha)) * Double(stored))
        lastRaw = input
        stored = result
        return result
    }
}
