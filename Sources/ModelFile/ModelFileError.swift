/// Why a `.tflite` file could not be read.
///
/// Every error names the file, so a message in a log says which model is broken
/// and how, without a stack trace.
public struct ModelFileError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The file (or a caller-given label for in-memory bytes).
    public var file: String
    /// What was wrong, in words.
    public var problem: String

    /// Creates an error for `file` describing `problem`.
    public init(file: String, problem: String) {
        self.file = file
        self.problem = problem
    }

    public var description: String { "\(file): \(problem)" }
}
