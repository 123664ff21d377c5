import CXNNPack

/// A pool of threads that XNNPACK splits each operator of a run over: the
/// calling thread plus `threads - 1` workers.
///
/// The pool is pthreadpool's 2025-10 snapshot (built by `make deps`). Its
/// workers join a parallel operator only if they arrive while work remains,
/// and the caller never waits for a worker that did not join: a worker that
/// is asleep or descheduled when an operator starts costs that operator its
/// share of parallelism, not a wait for the scheduler. Between operators the
/// workers spin briefly (a thousand pause instructions), then sleep in the
/// kernel.
///
/// Safety of `@unchecked Sendable`: the pool handle is written only in `init`
/// and freed only in `deinit`; pthreadpool serialises concurrent
/// parallelisation calls on one pool with its own mutex, so any thread may
/// run on it.
package final class ThreadPool: @unchecked Sendable {
    let handle: pthreadpool_t
    /// Threads taking part in a run, the caller included.
    package let threads: Int

    /// Creates a pool that splits runs over `threads` threads (at least 2).
    package init(threads: Int) throws {
        guard threads >= 2, let handle = pthreadpool_create(threads) else {
            throw InferenceError(file: "thread pool", problem: "could not create a pool of \(threads) threads (at least 2 are needed)")
        }
        self.handle = handle
        self.threads = pthreadpool_get_threads_count(handle)
    }

    deinit {
        pthreadpool_destroy(handle)
    }

    /// Sets how many threads, the caller included, the next operators are
    /// split over: from 1 (the caller alone) to `threads`.
    ///
    /// pthreadpool applies it between operators: the call waits for the
    /// operator that runs now, if any, to end, and a worker told to stay out
    /// is not woken for the next one. So a run under way on another thread
    /// gives the other cores back at its next operator.
    package func setWidth(_ width: Int) {
        _ = pthreadpool_set_threads_count(handle, max(1, min(width, threads)))
    }

    /// How many threads the next operators are split over.
    package var width: Int {
        pthreadpool_get_threads_count(handle)
    }

    /// Calls `body` with every index in `0..<count`, spread over the pool's
    /// threads, and returns when all calls have returned. The calls run
    /// concurrently, so `body` must only touch what no other index touches.
    package func parallelize(_ count: Int, _ body: (Int) -> Void) {
        withoutActuallyEscaping(body) { body in
            var task = body
            withUnsafeMutablePointer(to: &task) { task in
                pthreadpool_parallelize_1d(handle, { context, index in
                    context!.assumingMemoryBound(to: ((Int) -> Void).self).pointee(index)
                }, task, count, 0)
            }
        }
    }
}
