import FaceWorkerProtocol
import Glibc

/// The client's side of a worker restart: told of a lost connection by its
/// router, it connects again with its ``ReconnectPolicy``, restores its
/// sessions, buffers and subscriptions there, and moves its calls over, or
/// gives up; its ``ReconnectStateMachine`` says where calls go meanwhile.
extension FaceWorkerClient: LinkOwner {
    /// What one reconnect attempt restored on its new connection.
    struct Restored: Sendable {
        var link: Link
        var sessions: [(SessionRecord, UInt64)] = []
        var buffers: [(BufferRecord, UInt64)] = []
        var subscriptions: [(SubscriptionRecord, Faceworker_V1_SubscribeResponse)] = []
    }

    func takesOver(_ router: ResponseRouter, lostTo error: FaceWorkerError) -> Bool {
        state.withLock { $0.connection.lose(ObjectIdentifier(router), to: error, at: .now) }
    }

    /// The connection of `router` was gone before the router could tell.
    func lost(_ router: ResponseRouter, to error: FaceWorkerError) {
        if takesOver(router, lostTo: error) {
            reconnect(after: error)
        } else {
            gone(router, with: error)
        }
    }

    func reconnect(after cause: FaceWorkerError) {
        Task { await restore(after: cause) }
    }

    func gone(_ router: ResponseRouter, with error: FaceWorkerError) {
        let waiting = state.withLock { $0.connection.drop(ObjectIdentifier(router)) }
        for call in waiting { call.resume(throwing: error) }
    }

    private func restore(after cause: FaceWorkerError) async {
        guard let policy, case .reconnecting(let lostAt) = state.withLock({ $0.connection.phase }) else { return }
        do throws(FaceWorkerError) {
            // NOT_FOUND: the new worker is up, but a followed session's producer has not opened it there yet.
            let restored = try await Reconnection.untilDeadline(policy, lostAt: lostAt, socketPath: socketPath, alsoRetry: [.notFound]) { timeLeft in
                try await reopen(within: timeLeft)
            }
            await adopt(restored, cause: cause, duration: ContinuousClock.now - lostAt)
        } catch {
            giveUp(error, cause: cause, duration: ContinuousClock.now - lostAt)
        }
    }

    /// A new connection with the sessions opened, the buffers registered and
    /// the subscriptions subscribed again; their events wait for
    /// ``adopt(_:cause:duration:)``.
    private func reopen(within timeLeft: Duration) async throws -> Restored {
        let link = try await Link.open(socketPath: socketPath, maxMessageBytes: maxMessageBytes, reconnects: true)
        // Under socket activation the connection waits in the listen queue until a worker accepts it.
        let watchdog = Task { [socketPath] in
            try await Task.sleep(for: timeLeft)
            link.router.close(with: FaceWorkerError(code: .deadlineExceeded, message: "the worker at \(socketPath) did not answer within \(timeLeft)"))
            await link.close()
        }
        defer { watchdog.cancel() }
        do {
            var restored = Restored(link: link)
            let (sessions, subscriptions) = state.withLock { (Array($0.sessions.values), Array($0.subscriptions.values)) }
            for record in sessions {
                guard case .openSession(let response) = try Self.answer(await link.send(makeMessage(.openSession(record.request)))) else {
                    throw Self.unexpectedAnswer
                }
                restored.sessions.append((record, response.sessionID))
            }
            for (record, descriptor) in borrowBufferDescriptors() {
                defer { Glibc.close(descriptor) }
                let id = try await SharedFrameBuffer.register(descriptor) { kind in
                    try Self.answer(await link.send(makeMessage(kind)))
                }
                restored.buffers.append((record, id))
            }
            for record in subscriptions where !record.isOver {
                var request = Faceworker_V1_SubscribeRequest()
                request.name = record.name
                let message = makeMessage(.subscribe(request))
                link.router.addSubscription(message.callID, record, held: true)
                guard case .subscribe(let response) = try Self.answer(await link.send(message)) else { throw Self.unexpectedAnswer }
                restored.subscriptions.append((record, response))
            }
            return restored
        } catch {
            await link.close()
            throw error
        }
    }

    /// Copies of the registered buffers' descriptors, taken while no buffer
    /// can close its own; the caller closes them.
    private func borrowBufferDescriptors() -> [(BufferRecord, Int32)] {
        state.withLock { state in
            state.buffers.values.compactMap { record in
                let copy = dup(record.descriptor)
                return copy >= 0 ? (record, copy) : nil
            }
        }
    }

    private func adopt(_ restored: Restored, cause: FaceWorkerError, duration: Duration) async {
        let router = restored.link.router
        let adopted = state.withLock { state -> (waiting: [CheckedContinuation<Link, any Error>], lost: FaceWorkerError?, reconnecting: Bool)? in
            guard state.connection.adopt(restored.link) else { return nil }
            for (record, id) in restored.sessions {
                record.reopened(as: id)
                router.addStream(record)
            }
            for (record, id) in restored.buffers { record.id = id }
            for (record, response) in restored.subscriptions { record.subscribed(response) }
            // Told before any call can reach the new worker: no answer of it comes first.
            for (record, _) in restored.sessions { record.tell(cause: cause, duration: duration, error: nil) }
            router.release(telling: .workerRestarted(WorkerOutage(cause: cause, duration: duration, droppedFrames: 0)))
            // From here on the router hands a loss to this client, which is up on it.
            let lost = router.adopt(by: self)
            if let lost, state.connection.lose(ObjectIdentifier(router), to: lost, at: .now) {
                // Lost before the router could tell: the calls wait for the next connection.
                return ([], lost, true)
            }
            return (state.connection.takeWaiting(), lost, false)
        }
        guard let adopted else {
            await restored.link.close()
            return
        }
        for call in adopted.waiting { call.resume(returning: restored.link) }
        if let lost = adopted.lost {
            if adopted.reconnecting { reconnect(after: lost) } else { gone(router, with: lost) }
        }
    }

    private func giveUp(_ error: FaceWorkerError, cause: FaceWorkerError, duration: Duration) {
        let taken = state.withLock { state -> ([CheckedContinuation<Link, any Error>], [SessionRecord], [SubscriptionRecord])? in
            guard let waiting = state.connection.giveUp(error) else { return nil }
            defer {
                state.sessions = [:]
                state.subscriptions = [:]
                state.buffers = [:]
            }
            return (waiting, Array(state.sessions.values), Array(state.subscriptions.values))
        }
        guard let taken else { return }
        let (waiting, sessions, subscriptions) = taken
        for record in sessions {
            record.tell(cause: cause, duration: duration, error: error)
            record.results.finish()
        }
        for record in subscriptions where !record.isOver {
            record.events.yield(.workerRestarted(WorkerOutage(cause: cause, duration: duration, droppedFrames: 0, error: error)))
            record.events.finish(throwing: error)
        }
        for call in waiting { call.resume(throwing: error) }
    }
}
