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
/// share of parallelism, not a wait for the scheduler. A thread with nothing
/// to do, a worker between operators or the caller waiting for the workers,
/// spins a thousand pause instructions, then yields its CPU 200 times (about
/// 0.15 ms in all on a 2-core VM) before it sleeps in the kernel
/// (`scripts/pthreadpool-idle-yield.patch`): the next frame of a client that
/// sends as soon as it is answered finds the worker awake.
///
/// Safety of `@unchecked Sendable`: the pool handle is written only in `init`
/// and freed only in `deinit`; pthreadpool serialises concurrent
/// parallelisation calls on one pool with its own mutex, so any thread may
/// run on it.
package final class ThreadPool: @unchecked Sendable {
    let handle: pthreadpool_t
    /// Threads taking part in a run, the caller included.
    package let threads: Int
    /// The workers' kernel thread IDs when they are pinned; empty when not.
    private let workers: [Int32]
    /// The CPUs the pinned workers may be moved among, and the one each is on.
    private let placement: Mutex<Placement>

    private struct Placement {
        var cpus: [Int32]
        var workerCPUs: [Int32]
    }

    /// Whether the workers are pinned, each to a CPU of its own.
    package var isPinned: Bool { !workers.isEmpty }

    /// Creates a pool that splits runs over `threads` threads (at least 2).
    ///
    /// With `pinned`, when the calling thread may run on at least as many CPUs
    /// as the pool has threads, each worker is pinned to one of them, and
    /// `pinCaller()` holds a caller on its CPU with the workers on others
    /// until `unpin(_:)`. Unpinned, the kernel may wake a worker onto its
    /// caller's CPU after an idle spell and leave both there, since each
    /// sleeps while the other runs: on a 2-CPU VM a frame that came 50 ms
    /// after the last then took twice as long as one sent straight after it.
    package init(threads: Int, pinned: Bool = false) throws {
        guard threads >= 2, let handle = pthreadpool_create(threads) else {
            throw InferenceError(file: "thread pool", problem: "could not create a pool of \(threads) threads (at least 2 are needed)")
        }
        self.handle = handle
        self.threads = pthreadpool_get_threads_count(handle)
        let allowed = ThreadAffinity.allowedCPUs()
        let workerCPUs = Array(allowed.dropFirst().prefix(self.threads - 1))
        workers = pinned && allowed.count >= self.threads ? Self.pinWorkers(of: handle, threads: self.threads, to: workerCPUs) : []
        placement = Mutex(workers.isEmpty ? Placement(cpus: [], workerCPUs: []) : Placement(cpus: allowed, workerCPUs: workerCPUs))
    }

    /// Pins worker `k` to `cpus[k]` and returns the workers' thread IDs in
    /// that order; empty, when a worker could not be pinned.
    private static func pinWorkers(of handle: pthreadpool_t, threads: Int, to cpus: [Int32]) -> [Int32] {
        let caller = pthread_self()
        let arrived = Atomic(0)
        let failed = Atomic(false)
        let ids = Mutex([Int32]())
        // Each index waits until every worker has reported in, so every worker
        // takes one while the others are held. A worker can still run a second
        // index once all have: the caller, descheduled (on a busy machine), may
        // take none. So a worker reports in once, with its first index.
        parallelize(on: handle, threads) { _ in
            if pthread_equal(pthread_self(), caller) == 0 {
                let thread = ThreadAffinity.currentThread
                let slot: Int? = ids.withLock { ids in
                    guard !ids.contains(thread) else { return nil }
                    ids.append(thread)
                    return ids.count - 1
                }
                if let slot {
                    arrived.add(1, ordering: .acquiringAndReleasing)
                    if !ThreadAffinity.restrict(to: [cpus[slot]]) { failed.store(true, ordering: .releasing) }
                }
            }
            while arrived.load(ordering: .acquiring) < threads - 1 { sched_yield() }
        }
        return failed.load(ordering: .acquiring) ? [] : ids.withLock { $0 }
    }

    /// A caller pinned by `pinCaller()`: its thread, and the CPUs it may run
    /// on again once unpinned.
    package struct PinnedCaller: Sendable {
        let thread: Int32
        let allowed: [Int32]
    }

    /// Pins the calling thread to the CPU it runs on, moving any worker
    /// pinned there to another, so the caller is not moved (its caches stay
    /// warm) and no worker shares its CPU; nil, changing nothing, when the
    /// pool is not pinned or the thread could not be.
    package func pinCaller() -> PinnedCaller? {
        guard isPinned, let cpu = ThreadAffinity.currentCPU else { return nil }
        let allowed = ThreadAffinity.allowedCPUs()
        guard allowed.contains(cpu), ThreadAffinity.restrict(to: [cpu]) else { return nil }
        placement.withLock { placement in
            guard placement.workerCPUs.contains(cpu) else { return }
            let others = placement.cpus.filter { $0 != cpu }
            for (index, worker) in workers.enumerated() where !others.isEmpty {
                let target = others[index % others.count]
                if placement.workerCPUs[index] != target, ThreadAffinity.restrict(worker, to: [target]) {
                    placement.workerCPUs[index] = target
                }
            }
        }
        return PinnedCaller(thread: ThreadAffinity.currentThread, allowed: allowed)
    }

    /// Gives a pinned caller back the CPUs it was allowed before; any thread
    /// may call it.
    package func unpin(_ caller: PinnedCaller) {
        ThreadAffinity.restrict(caller.thread, to: caller.allowed)
    }

    /// The CPUs the pinned workers are on now, in worker order.
    package var workerCPUs: [Int32] {
        placement.withLock { $0.workerCPUs }
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
