import FaceDetection
import WorkerCore
import Inference
import Synchronization

/// The inference threads' engines, one per thread, the first of which can
/// split its model runs over every core: a frame that starts while no other
/// frame runs or waits (whatever sessions are open) borrows it to use every
/// core, and any other frame runs over its caller alone.
///
/// Each engine holds every model's runtime, so they are the worker's largest
/// memory after the models themselves; as many engines as threads is the
/// fewest that never makes a frame wait for one. A thread takes its own
/// engine when it is free, so the memory a thread touches usually stays in
/// its core's caches; a thread that finds it lent out takes another that is
/// free: with as many engines as threads, one always is.
///
/// A frame that starts beside a split run takes its core back: the split run
/// goes on over its caller alone from its next operator, so the newcomer
/// waits for one operator, not for the whole split frame, and the two do not
/// share a core for the rest of it.
///
/// A split run's threads each keep to a CPU of their own: the pool's workers
/// are pinned, and while the run is split its caller is held on the CPU it
/// runs on, a worker pinned there moved off it. Left to the kernel, a frame
/// that came after an idle spell often found the worker woken onto its
/// caller's CPU, the two taking turns there for the whole frame. A run that
/// is narrowed gives its caller its CPUs back at once: beside other frames,
/// a caller held on one CPU waited for it while another was free (8 Face
/// Landmarker live streams' p99 rose from 29 to 34 ms when it was held to
/// the end of its frame).
package final class EnginePool: Sendable {
    /// An engine and the lock under which one frame at a time uses it.
    private final class Slot: Sendable {
        let engine: Mutex<FaceEngine>

        init(_ engine: sending FaceEngine) {
            self.engine = Mutex(engine)
        }
    }

    private let engines: [Slot]
    /// The first engine's pool, over every thread; nil with one thread.
    private let pool: ThreadPool?
    /// Frames running over their caller alone now, and the split run's
    /// caller while it is pinned. Held while the pool's width is set, so a
    /// split run's width always follows the count last set.
    private let running = Mutex(Running())

    private struct Running {
        var others = 0
        var pinned: ThreadPool.PinnedCaller?

        /// Gives the pinned caller, if any, its CPUs back.
        mutating func unpin(from pool: ThreadPool?) {
            if let pinned { pool?.unpin(pinned) }
            pinned = nil
        }
    }

    /// Creates one engine per thread over `models`; with more than one thread,
    /// the first splits its runs over a pool of them all. Call `warm(_:)` for
    /// each engine before serving.
    ///
    /// The engines share one copy of each model's packed weights: the first
    /// engine's runtimes pack them here, before any engine runs, and the
    /// others find them in the finalized cache when they are built.
    package init(models: FaceModels, threads: Int) throws {
        let pool = threads > 1 ? try ThreadPool(threads: threads, pinned: true) : nil
        self.pool = pool
        let weights = try WeightsCache()
        let first = FaceEngine(models: models, threadPool: pool, weightsCache: weights)
        try first.build()
        try weights.finalize()
        engines = [Slot(first)] + (1..<threads).map { _ in Slot(FaceEngine(models: models, weightsCache: weights)) }
    }

    /// The number of engines: one per inference thread.
    var count: Int { engines.count }

    /// Builds engine `index`'s runtime of every model and runs each once.
    func warm(_ index: Int) throws {
        try engines[index].engine.withLock { engine in try engine.warm() }
    }

    /// Runs `body` on a free engine for the thread numbered `home`. A frame
    /// that `runsAlone` takes the splitting engine, over every core unless a
    /// frame already runs over its caller alone; any other takes the
    /// thread's own engine first, over its caller alone, and narrows a split
    /// run under way on another thread.
    func withEngine<Result: Sendable>(home: Int, runsAlone: Bool, _ body: (FaceEngine) -> Result) -> Result {
        if runsAlone, let split = engines[0].engine.withLockIfAvailable({ engine in
            running.withLock { running in
                let width = running.others == 0 ? pool?.threads ?? 1 : 1
                pool?.setWidth(width)
                if width > 1 { running.pinned = pool?.pinCaller() }
            }
            defer { running.withLock { $0.unpin(from: pool) } }
            return body(engine)
        }) {
            return split
        }
        running.withLock { running in
            running.others += 1
            pool?.setWidth(1)
            running.unpin(from: pool)
        }
        defer { running.withLock { $0.others -= 1 } }
        let order = [home] + engines.indices.filter { $0 != home }
        while true {
            for index in order {
                if let result = engines[index].engine.withLockIfAvailable({ engine in
                    if index == 0 { pool?.setWidth(1) }
                    return body(engine)
                }) {
                    return result
                }
            }
        }
    }

    /// How many threads the splitting engine's next operators run over.
    var width: Int { pool?.width ?? 1 }
}
