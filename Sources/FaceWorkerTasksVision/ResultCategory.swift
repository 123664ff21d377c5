/// A label and its score (MediaPipe's `ResultCategory`, `Category` in its
/// other languages): a detection's confidence, or one blendshape's score.
public struct ResultCategory: Sendable, Equatable {
    /// The position of the label among the model's labels (0 for a face
    /// detection; a blendshape's position among the 52).
    public let index: Int
    /// The score, in [0, 1].
    public let score: Float
    /// The label, such as "jawOpen"; nil for a face detection.
    public let categoryName: String?
    /// The label for display; empty for blendshapes, nil for a detection,
    /// as MediaPipe gives them.
    public let displayName: String?

    /// A category.
    public init(index: Int, score: Float, categoryName: String?, displayName: String?) {
        self.index = index
        self.score = score
        self.categoryName = categoryName
        self.displayName = displayName
    }
}

/// MediaPipe's `Category`, as its other languages name `ResultCategory`.
public typealias Category = ResultCategory
