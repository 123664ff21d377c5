import Inference

extension ThreadPool {
    /// The pool for a library session's `threads` argument: none for one thread.
    static func forSession(threads: Int) throws(FaceError) -> ThreadPool? {
        guard threads >= 1 else { throw .invalidArgument("threads must be at least 1, got \(threads)") }
        guard threads > 1 else { return nil }
        do {
            return try ThreadPool(threads: threads)
        } catch {
            throw .internalError("\(error)")
        }
    }
}
