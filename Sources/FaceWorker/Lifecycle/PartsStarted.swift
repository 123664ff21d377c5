/// Tells the worker when every one of its parts is up: each listener once it
/// accepts, the threads once they run. The parts start together in their
/// service group, which says nothing of when a part is ready; READY=1 and the
/// "worker started" line wait for this.
struct PartsStarted: Sendable {
    private let started: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    init() {
        (started, continuation) = AsyncStream.makeStream()
    }

    /// A part is up.
    func report() {
        continuation.yield()
    }

    /// Waits until `count` parts have reported; false when the wait was
    /// cancelled first (a part failed to start, or the worker was stopped).
    func wait(for count: Int) async -> Bool {
        var reported = 0
        for await _ in started {
            reported += 1
            if reported == count { return true }
        }
        return count == 0
    }
}
