/// Why the worker cannot start (a bad flag, a live worker on the socket, a
/// missing model), explained for the operator.
package struct WorkerStartupError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong and how to fix it.
    package var description: String

    /// Creates an error with its explanation.
    package init(_ description: String) {
        self.description = description
    }
}
