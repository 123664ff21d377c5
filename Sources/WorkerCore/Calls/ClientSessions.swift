import FaceDetection
import Foundation
import Logging

/// The sessions of one client, whichever door it came through, as calls on
/// the core: a door hands in requests with the token it will know their
/// answers by, the answers of a session leave through the `SessionOutput` it
/// was opened with, and a call refused outright throws its `CallError` for
/// the door to answer in its own wire format.
///
/// Not thread-safe: its owner calls it from one place at a time (the
/// connection's event loop, a gRPC call's task).
package final class ClientSessions {
    let core: WorkerCore
    let logger: Logger
    /// Whether the sessions' frames, and the calls refused or dropped, count
    /// in the worker's counters and metrics.
    let counted: Bool
    /// Where they count: nil when they do not.
    private var counters: FrameCounters? { counted ? core.stats : nil }
    /// The client's sessions, whose state the scheduler keeps; a closed
    /// session leaves at once, so later frames for it are NOT_FOUND.
    private(set) var openSessions: [UInt64: SessionBroadcast] = [:]

    /// A client with no session open yet, whose frames count in the worker's
    /// counters and metrics unless it is the worker's own (`counted` false).
    package init(core: WorkerCore, logger: Logger, counted: Bool = true) {
        self.core = core
        self.logger = logger
        self.counted = counted
    }

    /// OpenSession: checks the session limits and the name, makes the
    /// session's pipeline, publishes the name and registers the session with
    /// the scheduler; its answers go to `producer`.
    package func open(options requested: FaceOptions, name: String?, producer: any SessionOutput) throws(CallError) -> SessionOpening {
        let limits = core.limits
        guard openSessions.count < limits.maxSessionsPerConnection else {
            throw CallError(.resourceExhausted,
                            "this connection already has \(openSessions.count) sessions open, the most allowed (--max-sessions-per-connection); close one first")
        }
        let pipeline: any SessionPipeline
        do throws(FaceError) {
            pipeline = try core.analyzer.pipeline(for: requested)
        } catch {
            throw CallError(error)
        }
        if let name {
            try SessionName.validate(name)
        }
        let sessionID = core.makeSessionID()
        let options = pipeline.options
        let broadcast = SessionBroadcast(sessionID: sessionID, name: name, options: options, producer: producer)
        guard core.namedSessions.register(broadcast) else {
            throw CallError(.alreadyExists,
                            "a session named \"\(name ?? "")\" is already open; names are unique among the worker's open sessions: choose another, or close that session first")
        }
        guard core.scheduler.open(id: sessionID, pipeline: pipeline, output: broadcast, limit: limits.maxSessions, counted: counted) else {
            core.namedSessions.release(broadcast)
            throw CallError(.resourceExhausted, "the worker already has \(limits.maxSessions) sessions open, the most allowed (--max-sessions); try again later")
        }
        openSessions[sessionID] = broadcast
        logger.info("session opened", metadata: [
            "session": "\(sessionID)", "name": "\(name ?? "")", "mode": "\(options.runningMode)", "performance": "\(options.performanceMode)",
            "mesh": "\(options.needsMesh)", "mesh_model": "\(options.meshModel)", "tracking": "\(options.trackingEnabled)", "num_faces": "\(options.numFaces)",
        ])
        return SessionOpening(sessionID: sessionID, name: name, options: options)
    }

    /// ProcessFrame: `admit`, the door's admission of the frame, checks what
    /// can be checked without decoding (only once the session is found, as
    /// it may hold a shared-memory region), the session checks the
    /// timestamp and queues the frame (or its refusal) for an inference
    /// thread, which answers it. Every answer, a refusal included, goes the
    /// way of the session's other answers, so its subscribers see it in its
    /// place.
    ///
    /// - Throws: NOT_FOUND when the client has no session `sessionID`.
    package func processFrame(_ request: RequestToken, timestampMs: Int64, sessionID: UInt64,
                      admit: () -> Result<AdmittedFrame, CallError>) throws(CallError) {
        let received = ContinuousClock.now
        guard let session = openSessions[sessionID] else {
            counters?.recordFailed()
            throw CallError(.notFound, "no session \(sessionID) is open on this connection; call OpenSession first and use the session_id it returns")
        }
        let maxQueued = core.limits.maxQueuedFrames
        let outcome = core.scheduler.submit(request: request, admit(), timestampMs: timestampMs, to: sessionID,
                                              received: received, receivedUnixMicros: Self.unixMicroseconds(), maxQueued: maxQueued)
        switch outcome {
        case .queued:
            break
        case .replaced(let replaced):
            logger.debug("frame replaced", metadata: ["session": "\(sessionID)", "timestamp_ms": "\(replaced.frame.timestampMs)"])
            session.emit(dropAnswers([.frame(replaced)], sessionID: sessionID, reason: .replaced))
        case .refused(let error, let inTurn):
            if inTurn {
                counters?.recordFailed()
                logRefusal(request, error, sessionID: sessionID)
            } else {
                refuseFrame(request, error, timestampMs: timestampMs, of: session)
            }
        case .queueFull:
            refuseFrame(request, CallError(.resourceExhausted, "session \(sessionID) already has \(maxQueued) frames waiting (--max-queued-frames); wait for answers before sending more"),
                        timestampMs: timestampMs, of: session)
        case .unknownSession:
            refuseFrame(request, CallError(.notFound, "no session \(sessionID) is open on this connection"), timestampMs: timestampMs, of: session)
        }
    }

    /// CloseSession: frames still waiting are dropped (SESSION_CLOSED), and the
    /// close is answered after every earlier answer of the session.
    ///
    /// - Throws: NOT_FOUND when the client has no session `sessionID`.
    package func close(_ request: RequestToken, sessionID: UInt64) throws(CallError) {
        guard let broadcast = openSessions.removeValue(forKey: sessionID) else { throw Self.noSession(sessionID) }
        core.namedSessions.release(broadcast)
        var answers: [SessionAnswer]
        switch core.scheduler.close(sessionID, request: request) {
        case .closed(let dropped):
            answers = dropAnswers(dropped, sessionID: sessionID, reason: .sessionClosed)
            answers.append(SessionAnswer(request: request, sessionID: sessionID, output: .closed))
        case .closing(let dropped):
            // The inference thread answers the close after the running frame.
            answers = dropAnswers(dropped, sessionID: sessionID, reason: .sessionClosed)
        case .unknownSession:
            throw Self.noSession(sessionID)
        }
        broadcast.emit(answers)
        logger.info("session closed", metadata: ["session": "\(sessionID)"])
    }

    /// ResetSession: the session's tracking state and last timestamp are
    /// forgotten, frames still waiting are dropped (SESSION_RESET).
    ///
    /// - Throws: NOT_FOUND when the client has no session `sessionID`.
    package func reset(_ request: RequestToken, sessionID: UInt64) throws(CallError) {
        guard let broadcast = openSessions[sessionID], let dropped = core.scheduler.reset(sessionID) else { throw Self.noSession(sessionID) }
        var answers = dropAnswers(dropped, sessionID: sessionID, reason: .sessionReset)
        answers.append(SessionAnswer(request: request, sessionID: sessionID, output: .reset))
        broadcast.emit(answers)
        logger.info("session reset", metadata: ["session": "\(sessionID)", "frames_dropped": "\(dropped.count)"])
    }

    /// The client is gone: its sessions leave the scheduler without answers,
    /// and the subscribers of its named sessions are told the producer is
    /// gone.
    ///
    /// - Returns: how many sessions it had open.
    @discardableResult
    package func end() -> Int {
        core.scheduler.remove(openSessions.keys)
        for session in openSessions.values where session.name != nil {
            core.namedSessions.release(session)
            session.end(.producerGone)
        }
        defer { openSessions.removeAll() }
        return openSessions.count
    }

    /// One line per refused call, when it is refused (its answer may follow
    /// later), and the error counted.
    package func logRefusal(_ request: RequestToken, _ error: CallError, sessionID: UInt64?) {
        core.recordRefusal(request, error, sessionID: sessionID, logger: logger, counted: counted)
    }

    /// A frame refused at once, answered in its place among the session's answers.
    private func refuseFrame(_ request: RequestToken, _ error: CallError, timestampMs: Int64, of session: SessionBroadcast) {
        counters?.recordFailed()
        logRefusal(request, error, sessionID: session.sessionID)
        session.emit([SessionAnswer(request: request, sessionID: session.sessionID, output: .failed(error, timestampMs: timestampMs))])
    }

    /// FrameDropped answers for frames that will never be processed; a
    /// refusal waiting its turn gets its error, as it would have.
    private func dropAnswers(_ work: [SessionWork], sessionID: UInt64, reason: DropReason) -> [SessionAnswer] {
        work.map { item in
            switch item {
            case .refusal(let request, let timestampMs, let error):
                return SessionAnswer(request: request, sessionID: sessionID, output: .failed(error, timestampMs: timestampMs))
            case .frame(let frame):
                counters?.recordDropped(reason)
                return SessionAnswer(request: frame.request, sessionID: sessionID, output: .dropped(timestampMs: frame.frame.timestampMs, reason))
            }
        }
    }

    /// The error for a call about a session this client does not have.
    private static func noSession(_ sessionID: UInt64) -> CallError {
        CallError(.notFound, "no session \(sessionID) is open on this connection")
    }

    private static func unixMicroseconds() -> Int64 {
        Int64((Date().timeIntervalSince1970 * 1_000_000).rounded())
    }
}
