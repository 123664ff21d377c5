import FaceWorkerProtocol
import Foundation
import Logging

extension ConnectionHandler {
    /// ProcessFrame: admission checks what can be checked without decoding,
    /// the session checks the timestamp and queues the frame (or its refusal)
    /// for an inference thread, which answers it.
    func processFrame(callID: UInt64, _ request: Faceworker_V1_ProcessFrameRequest) {
        let received = ContinuousClock.now
        let sessionID = request.sessionID
        guard sessions.contains(sessionID), let admission else {
            refuseFrame(callID: callID, CallError(.notFound, "no session \(sessionID) is open on this connection; call OpenSession first and use the session_id it returns"),
                        sessionID: sessionID)
            return
        }
        let maxQueued = worker.configuration.limits.maxQueuedFrames
        let outcome = worker.scheduler.submit(callID: callID, admission.admit(request.frame), to: sessionID, received: received, receivedUnixMicros: Self.unixMicroseconds(), maxQueued: maxQueued)
        switch outcome {
        case .queued:
            break
        case .replaced(let replaced):
            logger.debug("frame replaced", metadata: ["session": "\(sessionID)", "timestamp_ms": "\(replaced.frame.timestampMs)"])
            outbox?.send(dropAnswers([.frame(replaced)], sessionID: sessionID, reason: .replaced))
        case .refused(let error, let inTurn):
            if inTurn {
                worker.stats.recordFailed()
                logRefusal(callID: callID, error, sessionID: sessionID)
            } else {
                refuseFrame(callID: callID, error, sessionID: sessionID)
            }
        case .queueFull:
            refuseFrame(callID: callID, CallError(.resourceExhausted, "session \(sessionID) already has \(maxQueued) frames waiting (--max-queued-frames); wait for answers before sending more"),
                        sessionID: sessionID)
        case .unknownSession:
            refuseFrame(callID: callID, CallError(.notFound, "no session \(sessionID) is open on this connection"), sessionID: sessionID)
        }
    }

    private func refuseFrame(callID: UInt64, _ error: CallError, sessionID: UInt64) {
        worker.stats.recordFailed()
        fail(callID: callID, error, sessionID: sessionID)
    }

    private static func unixMicroseconds() -> Int64 {
        Int64((Date().timeIntervalSince1970 * 1_000_000).rounded())
    }
}
