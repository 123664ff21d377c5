import FaceWorkerProtocol
import Foundation
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
    /// What the client's lock guards; its reconnect (`FaceWorkerClient+Reconnect`) shares it.
    struct State {
        /// The connection calls go to, and the reconnect's phase.
        var connection: ReconnectStateMachine<Link, CheckedContinuation<Link, any Error>>
        /// What a reconnect restores; kept only by a client that reconnects.
        var sessions: [ObjectIdentifier: SessionRecord] = [:]
        var subscriptions: [ObjectIdentifier: SubscriptionRecord] = [:]
        var buffers: [ObjectIdentifier: BufferRecord] = [:]
    }

    let socketPath: String
    let maxMessageBytes: Int
    let policy: ReconnectPolicy?
    let state: Mutex<State>
    private let lastCallID = Atomic<UInt64>(0)

    private init(link: Link, socketPath: String, maxMessageBytes: Int, policy: ReconnectPolicy?) {
        self.socketPath = socketPath
        self.maxMessageBytes = maxMessageBytes
        self.policy = policy
        state = Mutex(State(connection: ReconnectStateMachine(connection: link, reconnects: policy != nil)))
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
            defer {
                state.sessions = [:]
                state.subscriptions = [:]
                state.buffers = [:]
            }
            return (state.connection.current, state.connection.close(), state.sessions.values, state.subscriptions.values)
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
        let (phase, link) = state.withLock { ($0.connection.phase, $0.connection.current) }
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
        state.withLock { $0.connection.current }.router.unanswered
    }

    /// Forgets a closed session and ends its results.
    func closed(_ record: SessionRecord) {
        let link = state.withLock { state in
            state.sessions.removeValue(forKey: ObjectIdentifier(record))
            return state.connection.current
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
            let route = state.withLock { state in
                state.connection.route(continuation) { link in
                    // A stopping worker's connection takes no new call: it waits for the next worker.
                    link.router.isStopping || link.router.closedWith?.code == .unavailable
                }
            }
            switch route {
            case .proceed(let link): continuation.resume(returning: link)
            case .wait: break
            case .fail(let error): continuation.resume(throwing: error)
            }
        }
    }

    func makeMessage(_ kind: Faceworker_V1_ClientMessage.OneOf_Kind) -> Faceworker_V1_ClientMessage {
        var message = Faceworker_V1_ClientMessage()
        message.callID = lastCallID.add(1, ordering: .relaxed).newValue
        message.kind = kind
        return message
    }

    static func answer(_ answer: Faceworker_V1_WorkerMessage) throws -> Faceworker_V1_WorkerMessage.OneOf_Kind {
        switch answer.kind {
        case .error(let status): throw FaceWorkerError(status)
        case .frameDropped(let dropped): throw FrameDroppedError(dropped)
        case let kind?: return kind
        case nil: throw unexpectedAnswer
        }
    }

    static let unexpectedAnswer = FaceWorkerError(code: .internal, message: "the worker answered with an unexpected message kind")
}
