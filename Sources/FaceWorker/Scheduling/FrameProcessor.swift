import FaceDetection
import FaceWorkerProtocol
import Logging

/// Runs frames on one inference thread, with the runtimes it is given.
struct FrameProcessor {
    /// The largest stored image accepted, in pixels.
    let maxPixels: Int
    /// Where processed, failed and timed frames are counted.
    let stats: WorkerStats
    /// For one debug line per frame and one line per failed frame.
    let logger: Logger

    /// Decodes and processes `pending`, updating `job.tracker`, and returns
    /// its answer: a FrameResult, or the error status.
    func process(_ pending: PendingFrame, of job: inout FrameJob, engine: FaceEngine) -> Faceworker_V1_WorkerMessage {
        let started = ContinuousClock.now
        let timestampMs = pending.frame.timestampMs
        let result: FaceResult
        do throws(FaceError) {
            let frame = pending.frame
            result = try frame.withPixels { (pixels) throws(FaceError) in
                try job.pipeline.process(pixels, orientation: frame.orientation, timestampMs: frame.timestampMs, maxPixels: maxPixels,
                                         tracker: &job.tracker, engine: engine)
            }
        } catch {
            stats.recordFailed()
            let failure = CallError(error)
            stats.recordError(failure.code)
            logger.info("frame refused", metadata: [
                "session": "\(job.sessionID)", "timestamp_ms": "\(timestampMs)", "code": "\(failure.code)", "message": "\(failure.message)",
            ])
            return .failure(callID: pending.callID, failure, sessionID: job.sessionID, timestampMs: timestampMs)
        }
        let finished = ContinuousClock.now
        var timings = Faceworker_V1_StageTimings()
        timings.receivedUnixUs = pending.receivedUnixMicros
        timings.queuedUs = UInt64(microseconds: started - pending.received)
        timings.decodeUs = UInt64(microseconds: result.decodeTime)
        timings.detectUs = UInt64(microseconds: result.detectTime)
        timings.landmarksUs = UInt64(microseconds: result.landmarksTime)
        timings.totalUs = UInt64(microseconds: finished - pending.received)
        stats.recordProcessed(timings, mode: job.pipeline.options.runningMode)
        logger.debug("frame processed", metadata: [
            "session": "\(job.sessionID)", "timestamp_ms": "\(timestampMs)",
            "faces": "\(result.faces.count)", "total_us": "\(timings.totalUs)",
        ])
        let answer = Faceworker_V1_FrameResult(result, sessionID: job.sessionID, timestampMs: timestampMs, timings: timings)
        return Faceworker_V1_WorkerMessage(callID: pending.callID, .frameResult(answer))
    }
}
