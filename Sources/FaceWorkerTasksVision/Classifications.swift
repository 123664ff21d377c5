/// The categories one classifier head gives one face (MediaPipe's
/// `Classifications`): a face's 52 blendshape scores.
public struct Classifications: Sendable, Equatable {
    /// The head's index (always 0: the blendshape model has one head).
    public let headIndex: Int
    /// The head's name; nil, as MediaPipe gives it for blendshapes.
    public let headName: String?
    /// The scores, in the model's order.
    public let categories: [ResultCategory]

    /// Classifications of one head.
    public init(headIndex: Int, headName: String?, categories: [ResultCategory]) {
        self.headIndex = headIndex
        self.headName = headName
        self.categories = categories
    }
}
