/// Why a `.tflite` file could not be read.
///
/// Every error names the file, so a message in a log says which model is broken
/// and how, without a stack trace.
package struct ModelFileError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The file (or a caller-given label for in-memory bytes).
    package var file: String
    /// What was wrong, in words.
    package var problem: String

    /// Creates an error for `file` describing `problem`.
    package init(file: String, problem: String) {
        self.file = file
        self.problem = problem
    }

    package var description: String { "\(file): \(problem)" }
}
