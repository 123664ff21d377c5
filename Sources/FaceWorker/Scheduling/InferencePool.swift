import Dispatch
import FaceDetection
import Foundation
import Logging

/// The threads that run the models. Each has its own runtimes (XNNPACK
/// runtimes and a JPEG decoder are not thread-safe) over the shared,
/// once-loaded models, and takes frames from the scheduler until it stops.
final class InferencePool: Sendable {
    /// The number of threads.
    let count: Int
    private let exited = DispatchSemaphore(value: 0)

    /// Starts `count` threads serving `scheduler`; a frame that runs alone
    /// borrows `splitEngine`, when there is one, to use every core.
    init(count: Int, models: FaceModels, splitEngine: SplitEngine?, scheduler: FrameScheduler, stats: WorkerStats, maxPixels: Int, logger: Logger) {
        self.count = count
        let exited = exited
        for index in 0..<count {
            let thread = Thread {
                let processor = FrameProcessor(maxPixels: maxPixels, stats: stats, logger: logger)
                let engine = FaceEngine(models: models)
                let wakeup = DispatchSemaphore(value: 0)
                while var job = scheduler.next(wakeup: wakeup) {
                    let answer: SessionAnswer
                    switch job.work {
                    case .refusal(let request, let timestampMs, let error):
                        answer = SessionAnswer(request: request, sessionID: job.sessionID, output: .failed(error, timestampMs: timestampMs))
                    case .frame(let pending):
                        if job.runsAlone, let splitEngine,
                           let split = splitEngine.withEngineIfAvailable({ processor.process(pending, of: &job, engine: $0) }) {
                            answer = split
                        } else {
                            answer = processor.process(pending, of: &job, engine: engine)
                        }
                    }
                    job.output.emit([answer])
                    if let closeRequest = scheduler.complete(job) {
                        job.output.emit([SessionAnswer(request: closeRequest, sessionID: job.sessionID, output: .closed)])
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
