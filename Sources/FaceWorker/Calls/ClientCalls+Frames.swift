import FaceWorkerProtocol
import Foundation
import Logging

extension ClientCalls {
    /// ProcessFrame: admission checks what can be checked without decoding,
    /// the session checks the timestamp and queues the frame (or its refusal)
    /// for an inference thread, which answers it.
    func processFrame(callID: UInt64, _ request: Faceworker_V1_ProcessFrameRequest) {
        let received = ContinuousClock.now
        let sessionID = request.sessionID
        let timestampMs = request.frame.timestampMs
        guard let session = sessions[sessionID] else {
            worker.stats.recordFailed()
            fail(callID: callID, CallError(.notFound, "no session \(sessionID) is open on this connection; call OpenSession first and use the session_id it returns"),
                 sessionID: sessionID, timestampMs: timestampMs)
            return
        }
        let maxQueued = worker.configuration.limits.maxQueuedFrames
        let outcome = worker.scheduler.submit(request: RequestToken(callID), admission.admit(request.frame), timestampMs: timestampMs, to: sessionID,
                                              received: received, receivedUnixMicros: Self.unixMicroseconds(), maxQueued: maxQueued)
        switch outcome {
        case .queued:
            break
        case .replaced(let replaced):
            logger.debug("frame replaced", metadata: ["session": "\(sessionID)", "timestamp_ms": "\(replaced.frame.timestampMs)"])
            session.emit(dropAnswers([.frame(replaced)], sessionID: sessionID, reason: .replaced))
        case .refused(let error, let inTurn):
            if inTurn {
                worker.stats.recordFailed()
                logRefusal(callID: callID, error, sessionID: sessionID)
            } else {
                refuseFrame(callID: callID, error, timestampMs: timestampMs, of: session)
            }
        case .queueFull:
            refuseFrame(callID: callID, CallError(.resourceExhausted, "session \(sessionID) already has \(maxQueued) frames waiting (--max-queued-frames); wait for answers before sending more"),
                        timestampMs: timestampMs, of: session)
        case .unknownSession:
            refuseFrame(callID: callID, CallError(.notFound, "no session \(sessionID) is open on this connection"), timestampMs: timestampMs, of: session)
        }
    }

    /// A frame refused at once; its error goes the way of the session's
    /// other answers, so its subscribers see it in its place.
    private func refuseFrame(callID: UInt64, _ error: CallError, timestampMs: Int64, of session: SessionChannel) {
        worker.stats.recordFailed()
        logRefusal(callID: callID, error, sessionID: session.sessionID)
        session.emit([SessionAnswer(request: RequestToken(callID), sessionID: session.sessionID, output: .failed(error, timestampMs: timestampMs))])
    }

    private static func unixMicroseconds() -> Int64 {
        Int64((Date().timeIntervalSince1970 * 1_000_000).rounded())
    }
}
