import FaceDetection
import Inference
import Synchronization

/// The one engine whose model runs are split over every core, lent to a
/// frame that runs while the other inference threads have nothing to do and
/// no other session is open.
///
/// With as many ready sessions as threads, each thread runs its own frame on
/// its own core and nothing is gained by splitting; a lone session's frame
/// would leave cores idle. Only one frame can use the pool's cores at a time,
/// so the engine is lent out under a lock that no thread ever waits for: a
/// thread that finds it taken runs its frame on its own engine instead.
///
/// The pool's workers spin between runs, so a lone session's next frame finds
/// them awake. When another thread starts a frame of its own, the spinning
/// worker would take turns with it on its core, so that thread parks the
/// workers; if the engine is lent out just then, its borrower parks them as
/// soon as it has finished.
final class SplitEngine: Sendable {
    private let engine: Mutex<FaceEngine>
    private let pool: ThreadPool
    private let parkRequested = Atomic(false)
    /// Whether the workers may be awake: set when the engine is lent out,
    /// cleared when they are parked. Parking wakes a sleeping worker to hand
    /// it the order to sleep, so frames that share the cores skip it when
    /// nothing can be spinning.
    private let mayBeSpinning = Atomic(false)

    /// Creates the engine over a pool of `threads` threads.
    init(models: FaceModels, threads: Int) throws {
        let pool = try ThreadPool(threads: threads)
        self.pool = pool
        engine = Mutex(FaceEngine(models: models, threadPool: pool))
    }

    /// Runs `body` with the split engine, or returns nil at once when another
    /// thread has it.
    func withEngineIfAvailable<Result: Sendable>(_ body: (FaceEngine) -> Result) -> Result? {
        engine.withLockIfAvailable { engine in
            mayBeSpinning.store(true, ordering: .sequentiallyConsistent)
            defer { parkIfRequested() }
            return body(engine)
        }
    }

    /// Sends the pool's spinning workers to sleep now, or, while a frame uses
    /// them, once that frame is done.
    func park() {
        guard mayBeSpinning.load(ordering: .sequentiallyConsistent) else { return }
        parkRequested.store(true, ordering: .sequentiallyConsistent)
        _ = engine.withLockIfAvailable { _ in parkIfRequested() }
    }

    /// Called with the engine's lock held.
    private func parkIfRequested() {
        guard parkRequested.exchange(false, ordering: .sequentiallyConsistent) else { return }
        pool.park()
        mayBeSpinning.store(false, ordering: .sequentiallyConsistent)
    }
}
