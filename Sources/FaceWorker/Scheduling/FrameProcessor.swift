import FaceDetection
import FaceWorkerProtocol
import Foundation
import Logging

/// Runs frames on one inference thread, with the runtimes it is given.
struct FrameProcessor {
    /// The largest stored image accepted, in pixels.
    let maxPixels: Int
    /// Where processed, failed and timed frames are counted.
    let stats: WorkerStats
    /// For one debug line per frame and one line per failed frame.
    let logger: Logger

    /// Decodes and processes a job's frame, updating `job.state`, and returns
    /// its answer: a FrameResult, or the error status.
    func process(_ job: inout FrameJob, engine: FaceEngine) -> Faceworker_V1_WorkerMessage {
        let frame = job.frame
        let started = ContinuousClock.now
        let input = FrameInput(wire: frame.frame)
        let result: FaceResult
        do throws(FaceError) {
            result = try job.pipeline.process(input, maxPixels: maxPixels, state: &job.state, engine: engine)
        } catch {
            stats.recordFailed()
            let code = Faceworker_V1_Status.Code(error)
            logger.info("frame refused", metadata: [
                "session": "\(job.sessionID)", "timestamp_ms": "\(frame.frame.timestampMs)", "code": "\(code)", "message": "\(error)",
            ])
            return .failure(callID: frame.callID, code, error.description, sessionID: job.sessionID)
        }
        let finished = ContinuousClock.now
        var timings = Faceworker_V1_StageTimings()
        timings.receivedUnixUs = frame.receivedUnixMicros
        timings.queuedUs = (started - frame.received).wholeMicroseconds
        timings.decodeUs = UInt64(max(result.decodeMicros, 0))
        timings.detectUs = UInt64(max(result.detectMicros, 0))
        timings.landmarksUs = UInt64(max(result.landmarksMicros, 0))
        timings.totalUs = (finished - frame.received).wholeMicroseconds
        stats.recordProcessed(timings)
        logger.debug("frame processed", metadata: [
            "session": "\(job.sessionID)", "timestamp_ms": "\(frame.frame.timestampMs)",
            "faces": "\(result.faces.count)", "total_us": "\(timings.totalUs)",
        ])
        let answer = Faceworker_V1_FrameResult(result, sessionID: job.sessionID, timestampMs: frame.frame.timestampMs, timings: timings)
        return Faceworker_V1_WorkerMessage(callID: frame.callID, .frameResult(answer))
    }
}

extension Faceworker_V1_Status.Code {
    /// The status code for a pipeline error's category.
    init(_ error: FaceError) {
        switch error {
        case .invalidArgument: self = .invalidArgument
        case .failedPrecondition: self = .failedPrecondition
        case .internalError: self = .internal
        }
    }
}

extension Duration {
    /// Whole microseconds, zero for a negative duration.
    var wholeMicroseconds: UInt64 {
        let (seconds, attoseconds) = components
        let micros = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
        return micros > 0 ? UInt64(micros) : 0
    }
}
