/// Why a model could not be prepared or run on XNNPACK.
public struct InferenceError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The model file the error concerns.
    public var file: String
    /// The index of the operator in the folded graph, when one is to blame.
    public var operatorIndex: Int?
    /// What went wrong, including XNNPACK's status where it reported one.
    public var problem: String

    /// Creates an error.
    public init(file: String, operatorIndex: Int? = nil, problem: String) {
        self.file = file
        self.operatorIndex = operatorIndex
        self.problem = problem
    }

    public var description: String {
        if let operatorIndex { return "\(file): operator \(operatorIndex): \(problem)" }
        return "\(file): \(problem)"
    }
}
