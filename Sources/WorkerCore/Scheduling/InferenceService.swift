import Dispatch
import FaceDetection
import Logging
import ServiceLifecycle

/// The inference threads as a service: they take frames from the scheduler
/// until a graceful shutdown, which stops the scheduler and waits for each
/// thread to finish the frame it is processing.
package struct InferenceService: Service {
    private let configuration: WorkerConfiguration
    private let core: WorkerCore
    private let callWarmUp: CallWarmUp?
    private let settle: @Sendable (Logger) -> Void
    private let logger: Logger
    private let started: PartsStarted

    /// One thread per frame `core`'s analyzer runs at once, for its
    /// scheduler's frames; reports to `started` once every thread is warm,
    /// `callWarmUp`, when given, has made its calls, and `settle` has
    /// returned, so that the doors that wait for it open to warm code.
    /// `settle` is for what needs the warm state in place, such as moving
    /// the memory it left resident onto larger pages.
    package init(configuration: WorkerConfiguration, core: WorkerCore, callWarmUp: CallWarmUp?,
                 settle: @escaping @Sendable (Logger) -> Void = { _ in }, logger: Logger, started: PartsStarted) {
        self.configuration = configuration
        self.core = core
        self.callWarmUp = callWarmUp
        self.settle = settle
        self.logger = logger
        self.started = started
    }

    /// Runs the threads until a graceful shutdown or cancellation.
    package func run() async throws {
        let (analyzer, scheduler) = (core.analyzer, core.scheduler)
        let pool = InferencePool(analyzer: analyzer, scheduler: scheduler, stats: core.stats, maxPixels: configuration.limits.maxPixels,
                                 logger: logger)
        let clock = ContinuousClock()
        let warmStart = clock.now
        let failure = await Self.offThePool { pool.waitUntilWarm() }
        if let failure {
            scheduler.stop()
            await Self.offThePool { pool.join() }
            throw WorkerStartupError("cannot run the models on the inference threads: \(failure)")
        }
        let callsStart = clock.now
        let answered = await callWarmUp?.run(on: core, logger: logger) ?? 0
        await Self.offThePool { [settle, logger] in settle(logger) }
        logger.info("inference threads ready", metadata: [
            "inference_threads": "\(analyzer.threads)",
            "warm_ms": "\(Int((callsStart - warmStart) / .milliseconds(1)))",
            "warm_calls": "\(answered)", "warm_calls_ms": "\(Int((clock.now - callsStart) / .milliseconds(1)))",
        ])
        started.report()
        try? await gracefulShutdown()
        scheduler.stop()
        // The threads return each after its frame.
        await Self.offThePool { pool.join() }
    }

    /// Runs a call that blocks on the inference threads on a thread of its
    /// own, so no thread of the concurrency pool is blocked meanwhile.
    private static func offThePool<Value: Sendable>(_ body: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { (done: CheckedContinuation<Value, Never>) in
            DispatchQueue.global().async { done.resume(returning: body()) }
        }
    }
}
