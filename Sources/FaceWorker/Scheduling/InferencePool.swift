import Dispatch
import FaceDetection
import Foundation
import Logging
import Synchronization

/// The threads that run the models. Each has its own runtimes (XNNPACK
/// runtimes and a JPEG decoder are not thread-safe) over the shared,
/// once-loaded models, and takes frames from the scheduler until it stops.
final class InferencePool: Sendable {
    /// The number of threads.
    let count: Int
    private let exited = DispatchSemaphore(value: 0)
    private let warmed = DispatchGroup()
    private let warmFailure = Mutex<String?>(nil)

    /// Starts `count` threads serving `scheduler`; a frame that runs alone
    /// borrows `splitEngine`, when there is one, to use every core.
    ///
    /// Each thread first builds the runtime of every model and runs it once
    /// (`waitUntilWarm()` says when all have), so that no session's first
    /// frame pays for building runtimes, packing weights or faulting in
    /// their memory: that made a worker's first frame 3 to 5 times slower
    /// than the next ones.
    init(count: Int, models: FaceModels, splitEngine: SplitEngine?, scheduler: FrameScheduler, stats: WorkerStats, maxPixels: Int, logger: Logger) {
        self.count = count
        let exited = exited
        let warmed = warmed
        for index in 0..<count {
            warmed.enter()
            let thread = Thread {
                let processor = FrameProcessor(maxPixels: maxPixels, stats: stats, logger: logger)
                let engine = FaceEngine(models: models)
                do {
                    try engine.warm()
                } catch {
                    self.warmFailure.withLock { $0 = $0 ?? "\(error)" }
                }
                warmed.leave()
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
                        } else if let splitEngine {
                            answer = splitEngine.runningBeside { processor.process(pending, of: &job, engine: engine) }
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

    /// Blocks until every thread has run each model once; the first failure
    /// to build or run a model, if any.
    func waitUntilWarm() -> String? {
        warmed.wait()
        return warmFailure.withLock { $0 }
    }

    /// Waits until every thread has returned (after the scheduler stopped).
    func join() {
        for _ in 0..<count { exited.wait() }
    }
}
