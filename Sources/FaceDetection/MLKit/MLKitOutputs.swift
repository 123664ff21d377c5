/// Which ML Kit outputs to compute for a face; nothing is computed that is not asked for.
package struct MLKitOutputs: OptionSet, Sendable, Hashable {
    package let rawValue: Int

    /// Creates a set from its bits.
    package init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// The ten landmarks (ML Kit's landmark mode "all").
    package static let landmarks = MLKitOutputs(rawValue: 1 << 0)
    /// The fifteen contours (contour mode "all"), for every face.
    package static let contours = MLKitOutputs(rawValue: 1 << 1)
    /// Smiling and eye-open probabilities (classification mode "all").
    package static let classification = MLKitOutputs(rawValue: 1 << 2)
    /// Head Euler angles.
    package static let eulerAngles = MLKitOutputs(rawValue: 1 << 3)
    /// MediaPipe's 4x4 facial transformation matrix.
    package static let transformationMatrix = MLKitOutputs(rawValue: 1 << 4)

    /// Everything.
    package static let all: MLKitOutputs = [.landmarks, .contours, .classification, .eulerAngles, .transformationMatrix]
}
