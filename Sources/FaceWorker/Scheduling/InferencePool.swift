import Dispatch
import FaceDetection
import FaceWorkerProtocol
import Foundation
import Logging

/// The threads that run the models. Each has its own runtimes (XNNPACK
/// runtimes and a JPEG decoder are not thread-safe) over the shared,
/// once-loaded models, and takes frames from the scheduler until it stops.
final class InferencePool: Sendable {
    /// The number of threads.
    let count: Int
    private let exited = DispatchSemaphore(value: 0)

    /// Starts `count` threads serving `scheduler`.
    init(count: Int, models: FaceModels, scheduler: FrameScheduler, stats: WorkerStats, maxPixels: Int, logger: Logger) {
        self.count = count
        let exited = exited
        for index in 0..<count {
            let thread = Thread {
                // One XNNPACK thread per invoke: parallelism comes from serving
                // several sessions at once, not from splitting one model run.
                let processor = FrameProcessor(engine: FaceEngine(models: models, threads: 1), maxPixels: maxPixels, stats: stats, logger: logger)
                let wakeup = DispatchSemaphore(value: 0)
                while var job = scheduler.next(wakeup: wakeup) {
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
