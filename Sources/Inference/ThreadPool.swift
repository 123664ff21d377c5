import CXNNPack

/// A pool of threads that XNNPACK splits each operator of a run over: the
/// calling thread plus `threads - 1` workers.
///
/// Between runs the workers spin for a while (about 30 ms of CPU time on this
/// kind of machine) before they sleep, as the pools under MediaPipe and
/// LiteRT do, so the next run finds them awake instead of paying a wake-up on
/// every operator. `park()` sends them to sleep at once, for when another
/// thread needs the core they spin on.
///
/// Safety of `@unchecked Sendable`: the pool handle is written only in `init`
/// and freed only in `deinit`; pthreadpool serialises concurrent
/// parallelisation calls on one pool with its own mutex, so any thread may
/// run on it or park it.
public final class ThreadPool: @unchecked Sendable {
    let handle: pthreadpool_t
    /// Threads taking part in a run, the caller included.
    public let threads: Int

    /// Creates a pool that splits runs over `threads` threads (at least 2).
    public init(threads: Int) throws {
        guard threads >= 2, let handle = pthreadpool_create(threads) else {
            throw InferenceError(file: "thread pool", problem: "could not create a pool of \(threads) threads (at least 2 are needed)")
        }
        self.handle = handle
        self.threads = pthreadpool_get_threads_count(handle)
    }

    deinit {
        pthreadpool_destroy(handle)
    }

    /// Calls `body` with every index in `0..<count`, spread over the pool's
    /// threads, and returns when all calls have returned. The calls run
    /// concurrently, so `body` must only touch what no other index touches.
    public func parallelize(_ count: Int, _ body: (Int) -> Void) {
        withoutActuallyEscaping(body) { body in
            var task = body
            withUnsafeMutablePointer(to: &task) { task in
                pthreadpool_parallelize_1d(handle, { context, index in
                    context!.assumingMemoryBound(to: ((Int) -> Void).self).pointee(index)
                }, task, count, 0)
            }
        }
    }

    /// Sends spinning workers to sleep: an empty task for each thread, with
    /// the flag that makes workers sleep as soon as it is done.
    public func park() {
        pthreadpool_parallelize_1d(handle, { _, _ in }, nil, threads, UInt32(PTHREADPOOL_FLAG_YIELD_WORKERS))
    }
}
