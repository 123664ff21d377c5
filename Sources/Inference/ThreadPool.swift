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
    /// Whether the threads sleep after each model run instead of spinning,
    /// ready for the next one, for a while (milliseconds) on a core.
    public let sleepsAfterRuns: Bool

    /// Starts `threads - 1` worker threads (the caller of a job is the last
    /// one); nil when `threads` is below 2 or the threads cannot be started.
    /// A pool that shares its cores with other work should sleep after runs:
    /// waking it costs some microseconds per run, while a spinning thread
    /// takes its core from everything else.
    public init?(threads: Int, sleepsAfterRuns: Bool = false) {
        guard threads >= 2, let handle = pthreadpool_create(threads) else { return nil }
        self.handle = handle
        self.threads = threads
        self.sleepsAfterRuns = sleepsAfterRuns
    }

    deinit { pthreadpool_destroy(handle) }
}
