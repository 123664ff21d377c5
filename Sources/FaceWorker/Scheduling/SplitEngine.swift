import FaceDetection
import Inference
import Synchronization

/// The one engine whose model runs are split over every core, lent to a
/// frame that starts while the other inference threads have nothing to do,
/// whether or not other sessions are open.
///
/// With as many ready sessions as threads, each thread runs its own frame on
/// its own core and nothing is gained by splitting; a lone frame would leave
/// cores idle. Only one frame can use the pool's cores at a time, so the
/// engine is lent out under a lock that no thread ever waits for: a thread
/// that finds it taken runs its frame on its own engine instead.
///
/// A frame that starts on a thread's own engine while a split run is under
/// way takes its core back: the split run goes on over the caller alone from
/// its next operator, so the newcomer waits for one operator, not for the
/// whole split frame, and the two do not share a core for the rest of it.
final class SplitEngine: Sendable {
    private let engine: Mutex<FaceEngine>
    private let pool: ThreadPool
    /// Frames running on the threads' own engines now. Held while the pool's
    /// width is set, so a split run's width always follows the count last set.
    private let othersRunning = Mutex(0)

    /// Creates the engine over a pool of `threads` threads, each model's
    /// runtime built and run once.
    init(models: FaceModels, threads: Int) throws {
        pool = try ThreadPool(threads: threads)
        let engine = FaceEngine(models: models, threadPool: pool)
        try engine.warm()
        self.engine = Mutex(engine)
    }

    /// Runs `body` with the split engine, or returns nil at once when another
    /// thread has it. The run starts over every core unless a frame runs on
    /// another thread's own engine.
    func withEngineIfAvailable<Result: Sendable>(_ body: (FaceEngine) -> Result) -> Result? {
        engine.withLockIfAvailable { engine in
            othersRunning.withLock { running in pool.setWidth(running == 0 ? pool.threads : 1) }
            return body(engine)
        }
    }

    /// How many threads the split engine's next operators run over.
    var width: Int { pool.width }

    /// Runs `body`, a frame on a thread's own engine, with a split run that
    /// is under way narrowed to its caller from its next operator on.
    func runningBeside<Result>(_ body: () -> Result) -> Result {
        othersRunning.withLock { running in
            running += 1
            pool.setWidth(1)
        }
        defer { othersRunning.withLock { $0 -= 1 } }
        return body()
    }
}
