/// Why the worker cannot start (a bad flag, a live worker on the socket, a
/// missing model), explained for the operator.
public struct WorkerStartupError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong and how to fix it.
    public var description: String

    /// Creates an error with its explanation.
    public init(_ description: String) {
        self.description = description
    }
}
