import CXNNPack

/// Threads that XNNPACK runtimes split each operator's work over.
///
/// One pool may serve many runtimes used from many threads at once: pthreadpool
/// runs one parallel job at a time and makes other callers wait their turn (its
/// header documents this for every `pthreadpool_parallelize_*` function), and
/// the handle is never changed after creation. That is the proof behind
/// `@unchecked Sendable`.
public final class ThreadPool: @unchecked Sendable {
    let handle: pthreadpool_t
    /// The number of threads a job is split over, the calling thread included.
    public let threads: Int

    /// Starts `threads - 1` worker threads (the caller of a job is the last
    /// one); nil when `threads` is below 2 or the threads cannot be started.
    public init?(threads: Int) {
        guard threads >= 2, let handle = pthreadpool_create(threads) else { return nil }
        self.handle = handle
        self.threads = threads
    }

    deinit { pthreadpool_destroy(handle) }
}
