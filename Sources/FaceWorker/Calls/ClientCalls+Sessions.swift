import FaceDetection
import FaceWorkerProtocol
import Logging

extension ClientCalls {
    /// OpenSession: validates the options and the name, checks the session
    /// limits, publishes the name and registers the session with the
    /// scheduler.
    func openSession(callID: UInt64, _ request: Faceworker_V1_OpenSessionRequest) {
        let limits = worker.configuration.limits
        guard sessions.count < limits.maxSessionsPerConnection else {
            fail(callID: callID, CallError(.resourceExhausted,
                 "this connection already has \(sessions.count) sessions open, the most allowed (--max-sessions-per-connection); close one first"))
            return
        }
        let pipeline: FacePipeline
        do throws(FaceError) {
            let options = try FaceOptions(wire: request.options)
            pipeline = try FacePipeline(models: worker.models, options: options)
        } catch {
            fail(callID: callID, CallError(error))
            return
        }
        let name = request.optionalName == nil ? nil : request.name
        if let name {
            do throws(CallError) {
                try SessionName.validate(name)
            } catch {
                fail(callID: callID, error)
                return
            }
        }
        let sessionID = worker.makeSessionID()
        let options = pipeline.options
        let channel = SessionChannel(sessionID: sessionID, name: name, options: Faceworker_V1_SessionOptions(effective: options), producer: outbox)
        guard worker.sharedSessions.register(channel) else {
            fail(callID: callID, CallError(.alreadyExists,
                 "a session named \"\(name ?? "")\" is already open; names are unique among the worker's open sessions: choose another, or close that session first"))
            return
        }
        guard worker.scheduler.open(id: sessionID, pipeline: pipeline, output: channel, limit: limits.maxSessions) else {
            worker.sharedSessions.release(channel)
            fail(callID: callID, CallError(.resourceExhausted,
                 "the worker already has \(limits.maxSessions) sessions open, the most allowed (--max-sessions); try again later"))
            return
        }
        sessions[sessionID] = channel
        logger.info("session opened", metadata: [
            "session": "\(sessionID)", "name": "\(name ?? "")", "mode": "\(options.runningMode)", "performance": "\(options.performanceMode)",
            "mesh": "\(options.needsMesh)", "tracking": "\(options.trackingEnabled)", "num_faces": "\(options.numFaces)",
        ])
        var response = Faceworker_V1_OpenSessionResponse()
        response.sessionID = sessionID
        response.options = channel.options
        response.name = name ?? ""
        outbox.send(Faceworker_V1_WorkerMessage(callID: callID, .openSession(response)))
    }

    /// CloseSession: frames still waiting are dropped (SESSION_CLOSED), and the
    /// answer follows every earlier answer of the session.
    func closeSession(callID: UInt64, _ sessionID: UInt64) {
        guard let channel = sessions.removeValue(forKey: sessionID) else {
            fail(callID: callID, Self.noSession(sessionID), sessionID: sessionID)
            return
        }
        worker.sharedSessions.release(channel)
        let request = RequestToken(callID)
        var answers: [SessionAnswer]
        switch worker.scheduler.close(sessionID, request: request) {
        case .closed(let dropped):
            answers = dropAnswers(dropped, sessionID: sessionID, reason: .sessionClosed)
            answers.append(SessionAnswer(request: request, sessionID: sessionID, output: .closed))
        case .closing(let dropped):
            // The inference thread answers the close after the running frame.
            answers = dropAnswers(dropped, sessionID: sessionID, reason: .sessionClosed)
        case .unknownSession:
            fail(callID: callID, Self.noSession(sessionID), sessionID: sessionID)
            return
        }
        channel.emit(answers)
        logger.info("session closed", metadata: ["session": "\(sessionID)"])
    }

    /// ResetSession: the session's tracking state and last timestamp are
    /// forgotten, frames still waiting are dropped (SESSION_RESET).
    func resetSession(callID: UInt64, _ sessionID: UInt64) {
        guard let channel = sessions[sessionID], let dropped = worker.scheduler.reset(sessionID) else {
            fail(callID: callID, Self.noSession(sessionID), sessionID: sessionID)
            return
        }
        var answers = dropAnswers(dropped, sessionID: sessionID, reason: .sessionReset)
        answers.append(SessionAnswer(request: RequestToken(callID), sessionID: sessionID, output: .reset))
        channel.emit(answers)
        logger.info("session reset", metadata: ["session": "\(sessionID)", "frames_dropped": "\(dropped.count)"])
    }

    /// FrameDropped answers for frames that will never be processed; a
    /// refusal waiting its turn gets its error, as it would have.
    func dropAnswers(_ work: [SessionWork], sessionID: UInt64, reason: DropReason) -> [SessionAnswer] {
        work.map { item in
            switch item {
            case .refusal(let request, let timestampMs, let error):
                return SessionAnswer(request: request, sessionID: sessionID, output: .failed(error, timestampMs: timestampMs))
            case .frame(let frame):
                worker.stats.recordDropped(reason)
                return SessionAnswer(request: frame.request, sessionID: sessionID, output: .dropped(timestampMs: frame.frame.timestampMs, reason))
            }
        }
    }

    /// The error for a call about a session this connection does not have.
    static func noSession(_ sessionID: UInt64) -> CallError {
        CallError(.notFound, "no session \(sessionID) is open on this connection")
    }
}
