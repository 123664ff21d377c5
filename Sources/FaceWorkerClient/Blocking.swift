import Dispatch
import Synchronization

/// Runs the client's async calls for the synchronous methods of the ML Kit
/// and MediaPipe Tasks APIs (`detect(image:)`, `results(in:)`), whose
/// callers wait on their own thread as those APIs' callers do.
///
/// The work runs on Dispatch's threads, not on the concurrency pool: a
/// caller that blocks a pool thread (or a delegate that blocks) would
/// otherwise wait for a pool thread of its own, and with as many pool threads
/// as cores, a few such callers stall every task of the process.
package enum Blocking {
    /// The executor the work and the callbacks run on.
    package static let executor = DispatchTaskExecutor()

    /// Waits on this thread for `work`, and returns or throws its outcome.
    package static func wait<T: Sendable>(_ work: sending @escaping () async throws -> T) throws -> T {
        let outcome = Outcome<T>()
        Task(executorPreference: executor) {
            do {
                outcome.finish(.success(try await work()))
            } catch {
                outcome.finish(.failure(error))
            }
        }
        return try outcome.wait()
    }

    /// One result, handed from the task to the waiting thread.
    private final class Outcome<T: Sendable>: Sendable {
        private let result = Mutex<Result<T, any Error>?>(nil)
        private let done = DispatchSemaphore(value: 0)

        func finish(_ value: Result<T, any Error>) {
            result.withLock { $0 = value }
            done.signal()
        }

        func wait() throws -> T {
            done.wait()
            return try result.withLock { $0! }.get()
        }
    }
}

/// A task executor over Dispatch's global concurrent queue, whose threads
/// may block without starving the concurrency pool.
package final class DispatchTaskExecutor: TaskExecutor {
    private let queue = DispatchQueue.global()

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
