/// Why a model could not be prepared or run on XNNPACK.
package struct InferenceError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The model file the error concerns.
    package var file: String
    /// The index of the operator in the folded graph, when one is to blame.
    package var operatorIndex: Int?
    /// What went wrong, including XNNPACK's status where it reported one.
    package var problem: String

    /// Creates an error.
    package init(file: String, operatorIndex: Int? = nil, problem: String) {
        self.file = file
        self.operatorIndex = operatorIndex
        self.problem = problem
    }

    package var description: String {
        if let operatorIndex { return "\(file): operator \(operatorIndex): \(problem)" }
        return "\(file): \(problem)"
    }
}
