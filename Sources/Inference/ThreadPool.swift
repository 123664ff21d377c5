import CXNNPack
import Glibc
import Synchronization

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
    /// The CPU of each of the pool's threads, the caller's first, when they
    /// are pinned; empty when they are not.
    package let pinnedCPUs: [Int32]

    /// Creates a pool that splits runs over `threads` threads (at least 2).
    ///
    /// With `pinned`, when the calling thread may run on at least as many CPUs
    /// as the pool has threads, each worker is pinned to one of them and
    /// `pinCaller()` keeps a caller on the one left. Unpinned, the kernel may
    /// wake a worker onto its caller's CPU after an idle spell and leave both
    /// there, since each sleeps while the other runs: on a 2-CPU VM a frame
    /// that came 50 ms after the last then took twice as long as one sent
    /// straight after it.
    package init(threads: Int, pinned: Bool = false) throws {
        guard threads >= 2, let handle = pthreadpool_create(threads) else {
            throw InferenceError(file: "thread pool", problem: "could not create a pool of \(threads) threads (at least 2 are needed)")
        }
        self.handle = handle
        self.threads = pthreadpool_get_threads_count(handle)
        pinnedCPUs = pinned ? Self.pinWorkers(of: handle, threads: self.threads) : []
    }

    /// Pins worker `k` to the `k`-th CPU of the process's affinity mask and
    /// returns the CPUs used, the first left for callers; empty when the mask
    /// has fewer CPUs than the pool has threads, or a worker could not be
    /// pinned.
    private static func pinWorkers(of handle: pthreadpool_t, threads: Int) -> [Int32] {
        let allowed = ThreadAffinity.allowedCPUs()
        guard allowed.count >= threads else { return [] }
        let cpus = Array(allowed.prefix(threads))
        let caller = pthread_self()
        let arrived = Atomic(0)
        let failed = Atomic(false)
        // Each index waits until every worker has taken one, so no thread can
        // run two of them: every worker runs exactly one and pins itself.
        parallelize(on: handle, threads) { _ in
            if pthread_equal(pthread_self(), caller) == 0 {
                let slot = arrived.add(1, ordering: .acquiringAndReleasing).newValue
                if !ThreadAffinity.restrict(to: [cpus[slot]]) { failed.store(true, ordering: .releasing) }
            }
            while arrived.load(ordering: .acquiring) < threads - 1 { sched_yield() }
        }
        return failed.load(ordering: .acquiring) ? [] : cpus
    }

    /// Pins the calling thread to the CPU no worker is pinned to and returns
    /// the CPUs it was allowed before, for `unpinCaller(_:)`; nil, changing
    /// nothing, when the pool is not pinned or the thread could not be.
    package func pinCaller() -> [Int32]? {
        guard let cpu = pinnedCPUs.first else { return nil }
        let saved = ThreadAffinity.allowedCPUs()
        guard !saved.isEmpty, ThreadAffinity.restrict(to: [cpu]) else { return nil }
        return saved
    }

    /// Gives the calling thread back the CPUs `pinCaller()` returned.
    package func unpinCaller(_ saved: [Int32]) {
        ThreadAffinity.restrict(to: saved)
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
        Self.parallelize(on: handle, count, body)
    }

    private static func parallelize(on handle: pthreadpool_t, _ count: Int, _ body: (Int) -> Void) {
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
