import Dispatch
import FaceDetection
import FaceWorkerProtocol
import Foundation
import Inference
import Logging

/// The threads that run the models. Each has its own runtimes (XNNPACK
/// runtimes and a JPEG decoder are not thread-safe) over the shared,
/// once-loaded models, and takes frames from the scheduler until it stops.
///
/// They share one pool of threads for splitting a model run, used only for a
/// frame whose session has the worker to itself, so that one client alone gets
/// every core. With more sessions each thread runs its models by itself and
/// parallelism comes from serving several frames at once: a split run waits
/// for its slowest part, and under load a part often waits for a core.
final class InferencePool: Sendable {
    /// The number of threads.
    let count: Int
    private let exited = DispatchSemaphore(value: 0)

    /// Starts `count` threads serving `scheduler`; a lone session's model runs
    /// are split over `splitThreads` threads (1: never split).
    init(count: Int, splitThreads: Int, models: FaceModels, scheduler: FrameScheduler, stats: WorkerStats, maxPixels: Int, logger: Logger) {
        self.count = count
        let exited = exited
        // The pool sleeps after each run: clients and other processes share the cores.
        let splitPool = ThreadPool(threads: splitThreads, sleepsAfterRuns: true)
        for index in 0..<count {
            let thread = Thread {
                let engine = FaceEngine(models: models, pool: splitPool)
                let processor = FrameProcessor(engine: engine, maxPixels: maxPixels, stats: stats, logger: logger)
                while var job = scheduler.next() {
                    engine.splitsModelRuns = job.hasWorkerToItself
                    let answer = job.frame.refusal ?? processor.process(&job)
                    job.outbox.send(answer)
                    if let closeCallID = scheduler.complete(job) {
                        var response = Faceworker_V1_CloseSessionResponse()
                        response.sessionID = job.sessionID
                        job.outbox.send(Faceworker_V1_WorkerMessage(callID: closeCallID, .closeSession(response)))
                    }
                }
                exited.signal()
            }
            thread.name = "inference-\(index)"
            thread.start()
        }
    }

    /// Waits until every thread has returned (after the scheduler stopped).
    func join() {
        for _ in 0..<count { exited.wait() }
    }
}
