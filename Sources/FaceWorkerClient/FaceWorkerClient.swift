import FaceWorkerProtocol
import Foundation
import Glibc
import Synchronization

/// A connection to a face-worker, which the ML Kit and MediaPipe Tasks APIs
/// (`FaceWorkerMLKit`, `FaceWorkerTasksVision`) open beneath their detectors:
/// their sessions, frames, shared buffers and reconnects.
///
/// ```swift
/// let client = try await FaceWorkerClient.connect()
/// try await client.ping()
/// await client.close()
/// ```
///
/// Its session, frame and subscription calls speak the wire's messages and
/// are the package's own; a program that wants the wire itself takes its
/// messages from `FaceWorkerProtocol`. One connection carries any number of
/// calls at once, from any task: each call waits only for its own answer.
///
/// By default the client survives a worker restart (see ``ReconnectPolicy``):
/// when the worker closes the connection, calls wait while the client
/// connects again and restores its sessions, buffers and subscriptions. A
/// call in flight at the cut throws UNAVAILABLE once; live frames the cut
/// left unanswered, and those sent during the outage, are reported in their
/// session's `results` as dropped with `REASON_WORKER_RESTARTED`, never
/// answered twice; then each session's `results` and each subscription get
/// one `.workerRestarted` event for the outage.
public final class FaceWorkerClient: Sendable {
    private enum Phase {
        case up
        case reconnecting(lostAt: ContinuousClock.Instant)
        case gaveUp(FaceWorkerError)
        case closed
    }

    private struct State {
        var link: Link
        var phase = Phase.up
        /// Calls waiting for the connection a reconnect opens.
        var waiting: [CheckedContinuation<Link, any Error>] = []
        /// What a reconnect restores; kept only by a client that reconnects.
        var sessions: [ObjectIdentifier: SessionRecord] = [:]
        var subscriptions: [ObjectIdentifier: SubscriptionRecord] = [:]
        var buffers: [ObjectIdentifier: BufferRecord] = [:]
    }

    /// What one reconnect attempt restored on its new connection.
    private struct Restored: Sendable {
        var link: Link
        var sessions: [(SessionRecord, UInt64)] = []
        var buffers: [(BufferRecord, UInt64)] = []
        var subscriptions: [(SubscriptionRecord, Faceworker_V1_SubscribeResponse)] = []
    }

    private let socketPath: String
    private let maxMessageBytes: Int
    private let policy: ReconnectPolicy?
    private let state: Mutex<State>
    private let lastCallID = Atomic<UInt64>(0)

    private init(link: Link, socketPath: String, maxMessageBytes: Int, policy: ReconnectPolicy?) {
        self.socketPath = socketPath
        self.maxMessageBytes = maxMessageBytes
        self.policy = policy
        state = Mutex(State(link: link))
    }

    /// Connects to the worker listening on `socketPath`.
    ///
    /// - Parameters:
    ///   - socketPath: the worker's socket; by default the worker's own rule
    ///     (``WorkerSocket/path(explicit:environment:uid:)``):
    ///     `$FACEWORKER_SOCKET`, else `$XDG_RUNTIME_DIR/faceworker.sock`, else
    ///     `/tmp/faceworker-<uid>.sock`.
    ///   - maxMessageBytes: the longest answer accepted.
    ///   - reconnect: how the client finds the worker again after a restart;
    ///     nil: it does not, and every call after the loss throws UNAVAILABLE.
    public static func connect(
        socketPath: String = WorkerSocket.path(), maxMessageBytes: Int = WorkerSocket.maxAnswerBytes,
        reconnect: ReconnectPolicy? = ReconnectPolicy()
    ) async throws -> FaceWorkerClient {
        let link = try await Link.open(socketPath: socketPath, maxMessageBytes: maxMessageBytes, reconnects: reconnect != nil)
        let client = FaceWorkerClient(link: link, socketPath: socketPath, maxMessageBytes: maxMessageBytes, policy: reconnect)
        if let lost = link.router.adopt(by: client) { client.lost(link.router, to: lost) }
        return client
    }

    /// Closes the connection; the worker frees its sessions. A reconnect
    /// under way stops.
    public func close() async {
        let (link, waiting, sessions, subscriptions) = state.withLock { state in
            state.phase = .closed
            defer {
                state.waiting = []
                state.sessions = [:]
                state.subscriptions = [:]
                state.buffers = [:]
            }
            return (state.link, state.waiting, state.sessions.values, state.subscriptions.values)
        }
        await link.close()
        let error = link.router.closedWith ?? FaceWorkerError(code: .unavailable, message: "the client was closed")
        for call in waiting { call.resume(throwing: error) }
        for session in sessions { session.results.finish() }
        for subscription in subscriptions { subscription.events.finish(throwing: error) }
    }

    /// Sends a ping and returns the worker's echo of `payload`.
    @discardableResult
    public func ping(payload: Data = Data()) async throws -> Data {
        var request = Faceworker_V1_PingRequest()
        request.payload = payload
        guard case .ping(let response) = try await call(.ping(request)) else { throw Self.unexpectedAnswer }
        return response.payload
    }

    /// The worker's counters, latencies and memory.
    package func stats() async throws -> Faceworker_V1_GetStatsResponse {
        guard case .getStats(let response) = try await call(.getStats(Faceworker_V1_GetStatsRequest())) else { throw Self.unexpectedAnswer }
        return response
    }

    /// Opens a session with `options` (unset fields take their defaults).
    ///
    /// - Parameter name: shares the session under this name, which other
    ///   connections pass to ``subscribe(to:)``: 1 to 128 bytes of UTF-8
    ///   without control characters, unique among the worker's open
    ///   sessions (ALREADY_EXISTS otherwise). Nil: a private session.
    package func openSession(options: Faceworker_V1_SessionOptions = Faceworker_V1_SessionOptions(), name: String? = nil) async throws -> FaceWorkerSession {
        var request = Faceworker_V1_OpenSessionRequest()
        request.options = options
        if let name { request.name = name }
        let link = try await currentLink()
        guard case .openSession(let response) = try Self.answer(await link.send(makeMessage(.openSession(request)))) else { throw Self.unexpectedAnswer }
        let (results, continuation) = AsyncStream.makeStream(of: LiveStreamEvent.self, bufferingPolicy: .unbounded)
        let record = SessionRecord(request: request, id: response.sessionID, results: continuation)
        if !link.router.addStream(record), policy == nil { continuation.finish() }
        keep(record, in: \.sessions)
        return FaceWorkerSession(client: self, record: record, response: response, results: results)
    }

    /// Follows the session another connection opened with `name`: every
    /// answer its frames get arrives on the returned sequence.
    ///
    /// - Throws: `FaceWorkerError`: NOT_FOUND when no open session has the
    ///   name, FAILED_PRECONDITION when it is this connection's own,
    ///   RESOURCE_EXHAUSTED past the worker's subscription limits.
    package func subscribe(to name: String) async throws -> FaceWorkerSubscription {
        var request = Faceworker_V1_SubscribeRequest()
        request.name = name
        let (events, continuation) = AsyncThrowingStream.makeStream(of: SubscriptionEvent.self, throwing: (any Error).self, bufferingPolicy: .unbounded)
        let record = SubscriptionRecord(name: name, events: continuation)
        let link = try await currentLink()
        let message = makeMessage(.subscribe(request))
        link.router.addSubscription(message.callID, record)
        do {
            guard case .subscribe(let response) = try Self.answer(await link.send(message)) else { throw Self.unexpectedAnswer }
            record.subscribed(response)
            keep(record, in: \.subscriptions)
            return FaceWorkerSubscription(client: self, response: response, events: events, record: record)
        } catch {
            link.router.finishSubscription(message.callID)
            throw error
        }
    }

    /// Sends one call and waits for its answer.
    ///
    /// - Returns: the answer's kind.
    /// - Throws: `FaceWorkerError` when the worker answers with a status or the
    ///   connection closes first; `FrameDroppedError` when a frame is dropped.
    package func call(_ kind: Faceworker_V1_ClientMessage.OneOf_Kind) async throws -> Faceworker_V1_WorkerMessage.OneOf_Kind {
        let link = try await currentLink()
        return try Self.answer(await link.send(makeMessage(kind)))
    }

    /// Sends a call made once the connection to send it on is known, so that
    /// the IDs it names are those of the worker it goes to; `frameOf` is the
    /// session of a ProcessFrame call.
    func call(
        frameOf session: SessionRecord? = nil, _ make: () -> Faceworker_V1_ClientMessage.OneOf_Kind
    ) async throws -> Faceworker_V1_WorkerMessage.OneOf_Kind {
        let link = try await currentLink()
        return try Self.answer(await link.send(makeMessage(make()), frameOf: session?.id))
    }

    /// Sends a live-stream frame whose answer goes to its session's results,
    /// and returns once the request is written. While the client reconnects,
    /// the frame is reported as dropped at once: a camera does not stall.
    func stream(_ record: SessionRecord, _ frame: Faceworker_V1_Frame) async throws {
        let (phase, link) = state.withLock { ($0.phase, $0.link) }
        let mayDrop: Bool
        switch phase {
        case .reconnecting:
            record.dropRestarted(timestampMs: frame.timestampMs)
            return
        case .gaveUp(let error):
            throw error
        case .up:
            mayDrop = policy != nil
        case .closed:
            mayDrop = false
        }
        var request = Faceworker_V1_ProcessFrameRequest()
        request.sessionID = record.id
        request.frame = frame
        let message = makeMessage(.processFrame(request))
        if let error = link.router.stream(message.callID, sessionID: request.sessionID, timestampMs: frame.timestampMs) {
            guard mayDrop, error.code == .unavailable else { throw error }
            record.dropRestarted(timestampMs: frame.timestampMs)
            return
        }
        do {
            try await link.channel.writeAndFlush(message).get()
        } catch {
            // The cut that failed the write reports the frame as dropped.
            guard !mayDrop else { return }
            throw link.router.closedWith ?? FaceWorkerError(code: .unavailable, message: "cannot send to the worker: \(error)")
        }
    }

    /// How many calls, frames included, wait for the worker's answer on the
    /// current connection.
    var unansweredCalls: Int {
        state.withLock { $0.link }.router.unanswered
    }

    /// Forgets a closed session and ends its results.
    func closed(_ record: SessionRecord) {
        let link = state.withLock { state in
            state.sessions.removeValue(forKey: ObjectIdentifier(record))
            return state.link
        }
        link.router.removeStream(record.id)
        record.results.finish()
    }

    /// Keeps a registered buffer, to register it again after a restart.
    func keep(_ record: BufferRecord) {
        keep(record, in: \.buffers)
    }

    /// Forgets an unregistered or released buffer.
    func forget(_ record: BufferRecord) {
        _ = state.withLock { $0.buffers.removeValue(forKey: ObjectIdentifier(record)) }
    }

    private func keep<Record: AnyObject & Sendable>(_ record: Record, in records: WritableKeyPath<State, [ObjectIdentifier: Record]>) {
        guard policy != nil else { return }
        state.withLock { $0[keyPath: records][ObjectIdentifier(record)] = record }
    }

    /// The connection to call on; during an outage, the one the reconnect
    /// opens, once it is up.
    ///
    /// - Throws: why the reconnect gave up, when it did.
    private func currentLink() async throws -> Link {
        try await withCheckedThrowingContinuation { continuation in
            let now = state.withLock { state -> Result<Link, any Error>? in
                switch state.phase {
                case .up where policy != nil && (state.link.router.isStopping || state.link.router.closedWith?.code == .unavailable):
                    // The worker is going away: the next call is the new worker's.
                    state.waiting.append(continuation)
                    return nil
                case .up, .closed:
                    return .success(state.link)
                case .reconnecting:
                    state.waiting.append(continuation)
                    return nil
                case .gaveUp(let error):
                    return .failure(error)
                }
            }
            if let now { continuation.resume(with: now) }
        }
    }

    private func reconnectsAfter(_ error: FaceWorkerError) -> Bool {
        policy != nil && error.code == .unavailable
    }

    private func makeMessage(_ kind: Faceworker_V1_ClientMessage.OneOf_Kind) -> Faceworker_V1_ClientMessage {
        var message = Faceworker_V1_ClientMessage()
        message.callID = lastCallID.add(1, ordering: .relaxed).newValue
        message.kind = kind
        return message
    }

    private static func answer(_ answer: Faceworker_V1_WorkerMessage) throws -> Faceworker_V1_WorkerMessage.OneOf_Kind {
        switch answer.kind {
        case .error(let status): throw FaceWorkerError(status)
        case .frameDropped(let dropped): throw FrameDroppedError(dropped)
        case let kind?: return kind
        case nil: throw unexpectedAnswer
        }
    }

    private static let unexpectedAnswer = FaceWorkerError(code: .internal, message: "the worker answered with an unexpected message kind")
}

extension FaceWorkerClient: LinkOwner {
    func takesOver(_ router: ResponseRouter, lostTo error: FaceWorkerError) -> Bool {
        guard reconnectsAfter(error) else { return false }
        return state.withLock { state in
            guard case .up = state.phase, state.link.router === router else { return false }
            state.phase = .reconnecting(lostAt: ContinuousClock.now)
            return true
        }
    }

    /// The connection of `router` was gone before the router could tell.
    private func lost(_ router: ResponseRouter, to error: FaceWorkerError) {
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
        let waiting = state.withLock { state -> [CheckedContinuation<Link, any Error>] in
            guard case .up = state.phase, state.link.router === router else { return [] }
            defer { state.waiting = [] }
            return state.waiting
        }
        for call in waiting { call.resume(throwing: error) }
    }

    private func restore(after cause: FaceWorkerError) async {
        guard let policy, case .reconnecting(let lostAt) = state.withLock({ $0.phase }) else { return }
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
        let adopted = state.withLock { state -> (waiting: [CheckedContinuation<Link, any Error>], lost: FaceWorkerError?)? in
            guard case .reconnecting = state.phase else { return nil }
            state.link = restored.link
            for (record, id) in restored.sessions {
                record.reopened(as: id)
                router.addStream(record)
            }
            for (record, id) in restored.buffers { record.id = id }
            for (record, response) in restored.subscriptions { record.subscribed(response) }
            // Told before any call can reach the new worker: no answer of it comes first.
            for (record, _) in restored.sessions { record.tell(cause: cause, duration: duration, error: nil) }
            router.release(telling: .workerRestarted(WorkerOutage(cause: cause, duration: duration, droppedFrames: 0)))
            state.phase = .up
            // From here on the router hands a loss to this client, which is up on it.
            let lost = router.adopt(by: self)
            if let lost, reconnectsAfter(lost) {
                // Lost before the router could tell: the calls wait for the next connection.
                state.phase = .reconnecting(lostAt: ContinuousClock.now)
                return ([], lost)
            }
            defer { state.waiting = [] }
            return (state.waiting, lost)
        }
        guard let adopted else {
            await restored.link.close()
            return
        }
        for call in adopted.waiting { call.resume(returning: restored.link) }
        if let lost = adopted.lost {
            if reconnectsAfter(lost) { reconnect(after: lost) } else { gone(router, with: lost) }
        }
    }

    private func giveUp(_ error: FaceWorkerError, cause: FaceWorkerError, duration: Duration) {
        let taken = state.withLock { state -> ([CheckedContinuation<Link, any Error>], [SessionRecord], [SubscriptionRecord])? in
            guard case .reconnecting = state.phase else { return nil }
            state.phase = .gaveUp(error)
            defer {
                state.waiting = []
                state.sessions = [:]
                state.subscriptions = [:]
                state.buffers = [:]
            }
            return (state.waiting, Array(state.sessions.values), Array(state.subscriptions.values))
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
