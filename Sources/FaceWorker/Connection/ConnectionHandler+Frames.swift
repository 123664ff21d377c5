import FaceWorkerProtocol
import Foundation
import Logging

extension ConnectionHandler {
    /// ProcessFrame: checks what can be checked without decoding, then queues
    /// the frame for an inference thread, which answers it.
    func processFrame(callID: UInt64, _ request: Faceworker_V1_ProcessFrameRequest) {
        let received = ContinuousClock.now
        let sessionID = request.sessionID
        guard var record = sessions[sessionID] else {
            refuseFrame(callID: callID, .notFound,
                        "no session \(sessionID) is open on this connection; call OpenSession first and use the session_id it returns",
                        sessionID: sessionID)
            return
        }
        let frame = request.frame
        if let (code, message) = admission?.refusal(of: frame) {
            refuseInTurn(callID: callID, frame, code, message, sessionID: sessionID, received: received)
            return
        }
        if record.mode != .image, let last = record.lastTimestampMs, frame.timestampMs <= last {
            refuseInTurn(callID: callID, frame, .invalidArgument,
                         "timestamp_ms must increase from frame to frame in \(record.mode) mode: got \(frame.timestampMs) after \(last)",
                         sessionID: sessionID, received: received)
            return
        }
        let pending = PendingFrame(callID: callID, frame: frame, received: received, receivedUnixMicros: Self.unixMicroseconds())
        let maxQueued = worker.configuration.limits.maxQueuedFrames
        switch worker.scheduler.submit(pending, to: sessionID, maxQueued: maxQueued) {
        case .queued:
            break
        case .replaced(let replaced):
            logger.debug("frame replaced", metadata: ["session": "\(sessionID)", "timestamp_ms": "\(replaced.frame.timestampMs)"])
            outbox?.send(dropAnswers([replaced], sessionID: sessionID, reason: .replaced))
        case .queueFull:
            refuseFrame(callID: callID, .resourceExhausted,
                        "session \(sessionID) already has \(maxQueued) frames waiting (--max-queued-frames); wait for answers before sending more",
                        sessionID: sessionID)
            return
        case .unknownSession:
            refuseFrame(callID: callID, .notFound, "no session \(sessionID) is open on this connection", sessionID: sessionID)
            return
        }
        record.lastTimestampMs = frame.timestampMs
        sessions[sessionID] = record
    }

    private func refuseFrame(callID: UInt64, _ code: Faceworker_V1_Status.Code, _ message: String, sessionID: UInt64) {
        worker.stats.recordFailed()
        fail(callID: callID, code, message, sessionID: sessionID)
    }

    /// Refuses a frame after the session's earlier frames are answered, when
    /// some are still waiting or running; at once otherwise.
    private func refuseInTurn(callID: UInt64, _ frame: Faceworker_V1_Frame, _ code: Faceworker_V1_Status.Code, _ message: String,
                              sessionID: UInt64, received: ContinuousClock.Instant) {
        // Only the timestamp is kept: a refused frame's pixels are not needed.
        var placeholder = Faceworker_V1_Frame()
        placeholder.timestampMs = frame.timestampMs
        let refused = PendingFrame(callID: callID, frame: placeholder, received: received, receivedUnixMicros: Self.unixMicroseconds(),
                                   refusal: .failure(callID: callID, code, message, sessionID: sessionID))
        guard worker.scheduler.queueRefusal(refused, to: sessionID, maxQueued: worker.configuration.limits.maxQueuedFrames) else {
            refuseFrame(callID: callID, code, message, sessionID: sessionID)
            return
        }
        worker.stats.recordFailed()
        logRefusal(callID: callID, code, message, sessionID: sessionID)
    }

    private static func unixMicroseconds() -> Int64 {
        Int64((Date().timeIntervalSince1970 * 1_000_000).rounded())
    }
}
