import Dispatch
import FaceDetection
import Foundation
import Logging
import Synchronization

/// The threads that run the frames, as many as the face pipeline runs at
/// once, taking frames from the scheduler until it stops.
package final class InferencePool: Sendable {
    /// The number of threads.
    let count: Int
    private let exited = DispatchSemaphore(value: 0)
    private let warmed = DispatchGroup()
    private let warmFailure = Mutex<String?>(nil)

    /// Starts one thread per frame `analyzer` runs at once, serving `scheduler`.
    ///
    /// Each thread first has the analyzer warm it (`waitUntilWarm()` says
    /// when all are), so that no session's first frame pays for building
    /// runtimes, packing weights or faulting in their memory: that made a
    /// worker's first frame 3 to 5 times slower than the next ones.
    package init(analyzer: any FaceAnalyzer, scheduler: FrameScheduler, stats: FrameCounters, maxPixels: Int, logger: Logger) {
        count = analyzer.threads
        let count = count
        let exited = exited
        let warmed = warmed
        for index in 0..<count {
            warmed.enter()
            let thread = Thread {
                let processor = FrameProcessor(maxPixels: maxPixels, stats: stats, logger: logger)
                do {
                    try analyzer.warm(thread: index)
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
                        answer = processor.process(pending, of: &job, thread: index)
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

    /// Blocks until every thread is warm; the first failure to warm one, if any.
    package func waitUntilWarm() -> String? {
        warmed.wait()
        return warmFailure.withLock { $0 }
    }

    /// Waits until every thread has returned (after the scheduler stopped).
    package func join() {
        for _ in 0..<count { exited.wait() }
    }
}
