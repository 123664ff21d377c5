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
/// The pool's workers spin only briefly between operators and then sleep on
/// their own, so frames that share the cores need not send them to sleep.
final class SplitEngine: Sendable {
    private let engine: Mutex<FaceEngine>

    /// Creates the engine over a pool of `threads` threads.
    init(models: FaceModels, threads: Int) throws {
        engine = Mutex(FaceEngine(models: models, threadPool: try ThreadPool(threads: threads)))
    }

    /// Runs `body` with the split engine, or returns nil at once when another
    /// thread has it.
    func withEngineIfAvailable<Result: Sendable>(_ body: (FaceEngine) -> Result) -> Result? {
        engine.withLockIfAvailable { engine in body(engine) }
    }
}
