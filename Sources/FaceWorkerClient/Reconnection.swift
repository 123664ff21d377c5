import FaceWorkerProtocol

/// Finding the worker again after a lost connection: the backoff and the
/// deadline of a ``ReconnectPolicy``.
enum Reconnection {
    /// UNAVAILABLE: nothing listens yet, or the old worker is still stopping.
    /// DEADLINE_EXCEEDED: an attempt waited for a worker that never answered.
    private static let retryable: Set<Faceworker_V1_Status.Code> = [.unavailable, .deadlineExceeded]

    /// `attempt(timeLeft)`'s value, tried with `policy`'s backoff from `lostAt`
    /// until the deadline. An attempt must give up by itself within
    /// `timeLeft`. Errors other than `FaceWorkerError` (the socket refused
    /// the connection) are tried again, as are UNAVAILABLE, DEADLINE_EXCEEDED
    /// and the codes in `alsoRetry`.
    ///
    /// - Throws: the worker's own error when it refused the attempt for
    ///   another reason (a session's options, a protocol it does not speak);
    ///   UNAVAILABLE once the deadline has passed.
    static func untilDeadline<T: Sendable>(
        _ policy: ReconnectPolicy, lostAt: ContinuousClock.Instant, socketPath: String,
        alsoRetry: Set<Faceworker_V1_Status.Code>, _ attempt: (Duration) async throws -> T
    ) async throws(FaceWorkerError) -> T {
        let deadline = lostAt + policy.deadline
        var backoff = ReconnectBackoff(policy)
        while true {
            let last: FaceWorkerError
            do {
                return try await attempt(max(deadline - ContinuousClock.now, .zero))
            } catch let error as FaceWorkerError {
                guard retryable.contains(error.code) || alsoRetry.contains(error.code) else { throw error }
                last = error
            } catch {
                last = FaceWorkerError(code: .unavailable, message: "cannot connect to \(socketPath): \(error)")
            }
            let left = deadline - ContinuousClock.now
            guard left > .zero else {
                throw FaceWorkerError(code: .unavailable, message: "no worker came back on \(socketPath) within \(policy.deadline); the last attempt failed with \(last)")
            }
            try? await Task.sleep(for: min(backoff.next(), left))
        }
    }
}

/// The waits between a reconnect's attempts: a policy's `initialDelay`, then
/// twice the last wait, up to its `maxDelay`.
struct ReconnectBackoff {
    private var delay: Duration
    private let maxDelay: Duration

    init(_ policy: ReconnectPolicy) {
        delay = policy.initialDelay
        maxDelay = policy.maxDelay
    }

    /// The wait before the next attempt.
    mutating func next() -> Duration {
        defer { delay = min(delay * 2, maxDelay) }
        return delay
    }
}
