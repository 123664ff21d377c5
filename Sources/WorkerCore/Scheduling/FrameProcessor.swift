import FaceDetection
import Logging

/// Runs frames on one inference thread, with the runtimes it is given.
struct FrameProcessor {
    /// The largest stored image accepted, in pixels.
    let maxPixels: Int
    /// Where processed, failed and timed frames are counted.
    let stats: FrameCounters
    /// For one debug line per frame and one line per failed frame.
    let logger: Logger

    /// Decodes and processes `pending` on inference thread `thread`, updating
    /// `job.tracker`, and returns its answer: the result with its stage
    /// times, or the failure.
    func process(_ pending: PendingFrame, of job: inout FrameJob, thread: Int) -> SessionAnswer {
        let started = ContinuousClock.now
        let timestampMs = pending.frame.timestampMs
        let result: FaceResult
        do throws(FaceError) {
            let frame = pending.frame
            result = try frame.withPixels { (pixels) throws(FaceError) in
                try job.pipeline.process(pixels, orientation: frame.orientation, timestampMs: frame.timestampMs, maxPixels: maxPixels,
                                         tracker: &job.tracker, thread: thread, runsAlone: job.runsAlone)
            }
        } catch {
            let failure = CallError(error)
            if job.counted {
                stats.recordFailed()
                stats.recordError(failure.code)
            }
            logger.info("frame refused", metadata: [
                "session": "\(job.sessionID)", "timestamp_ms": "\(timestampMs)", "code": "\(failure.code)", "message": "\(failure.message)",
            ])
            return SessionAnswer(request: pending.request, sessionID: job.sessionID, output: .failed(failure, timestampMs: timestampMs))
        }
        let finished = ContinuousClock.now
        let timings = StageDurations(receivedUnixMicros: pending.receivedUnixMicros, queued: started - pending.received,
                                     decode: result.decodeTime, detect: result.detectTime, landmarks: result.landmarksTime,
                                     total: finished - pending.received)
        if job.counted {
            stats.recordProcessed(timings, mode: job.pipeline.options.runningMode)
        }
        logger.debug("frame processed", metadata: [
            "session": "\(job.sessionID)", "timestamp_ms": "\(timestampMs)",
            "faces": "\(result.faces.count)", "total_us": "\(UInt64(microseconds: timings.total))",
        ])
        let processed = ProcessedFrame(timestampMs: timestampMs, result: result, timings: timings)
        return SessionAnswer(request: pending.request, sessionID: job.sessionID, output: .result(processed))
    }
}
