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
        guard worker.scheduler.open(id: sessionID, pipeline: pipeline, outbox: channel, limit: limits.maxSessions) else {
            worker.sharedSessions.release(channel)
            fail(callID: callID, CallError(.resourceExhausted,
                 "the worker already has \(limits.maxSessions) sessions open, the most allowed (--max-sessions); try again later"))
            return
        }
        sessions[sessionID] = channel
        logger.info("session opened", metadata: [
            "session": "\(sessionID)", "name": "\(name ?? "")", "mode": "\(options.runningMode)", "performance": "\(options.performanceMode)",
            "mesh": "\(options.needsMesh)", "mesh_model": "\(options.meshModel)", "tracking": "\(options.trackingEnabled)", "num_faces": "\(options.numFaces)",
        ])
        var response = Faceworker_V1_OpenSessionResponse()
        response.sessionID = sessionID
        response.options = channel.options
        response.name = name ?? ""
        response.blendshapeNames = channel.options.blendshapeNames
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
        var messages: [Faceworker_V1_WorkerMessage]
        switch worker.scheduler.close(sessionID, callID: callID) {
        case .closed(let dropped):
            var response = Faceworker_V1_CloseSessionResponse()
            response.sessionID = sessionID
            messages = dropAnswers(dropped, sessionID: sessionID, reason: .sessionClosed)
            messages.append(Faceworker_V1_WorkerMessage(callID: callID, .closeSession(response)))
        case .closing(let dropped):
            // The inference thread answers the close after the running frame.
            messages = dropAnswers(dropped, sessionID: sessionID, reason: .sessionClosed)
        case .unknownSession:
            fail(callID: callID, Self.noSession(sessionID), sessionID: sessionID)
            return
        }
        channel.send(messages)
        logger.info("session closed", metadata: ["session": "\(sessionID)"])
    }

    /// ResetSession: the session's tracking state and last timestamp are
    /// forgotten, frames still waiting are dropped (SESSION_RESET).
    func resetSession(callID: UInt64, _ sessionID: UInt64) {
        guard let channel = sessions[sessionID], let dropped = worker.scheduler.reset(sessionID) else {
            fail(callID: callID, Self.noSession(sessionID), sessionID: sessionID)
            return
        }
        var response = Faceworker_V1_ResetSessionResponse()
        response.sessionID = sessionID
        var messages = dropAnswers(dropped, sessionID: sessionID, reason: .sessionReset)
        messages.append(Faceworker_V1_WorkerMessage(callID: callID, .resetSession(response)))
        channel.send(messages)
        logger.info("session reset", metadata: ["session": "\(sessionID)", "frames_dropped": "\(dropped.count)"])
    }

    /// FrameDropped answers for frames that will never be processed; a
    /// refusal waiting its turn gets its error, as it would have.
    func dropAnswers(_ work: [SessionWork], sessionID: UInt64, reason: Faceworker_V1_FrameDropped.Reason) -> [Faceworker_V1_WorkerMessage] {
        work.map { item in
            switch item {
            case .refusal(let callID, let timestampMs, let error):
                return .failure(callID: callID, error, sessionID: sessionID, timestampMs: timestampMs)
            case .frame(let frame):
                worker.stats.recordDropped(reason)
                var dropped = Faceworker_V1_FrameDropped()
                dropped.sessionID = sessionID
                dropped.timestampMs = frame.frame.timestampMs
                dropped.reason = reason
                return Faceworker_V1_WorkerMessage(callID: frame.callID, .frameDropped(dropped))
            }
        }
    }

    /// The error for a call about a session this connection does not have.
    static func noSession(_ sessionID: UInt64) -> CallError {
        CallError(.notFound, "no session \(sessionID) is open on this connection")
    }
}
