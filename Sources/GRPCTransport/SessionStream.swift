import FaceDetection
import FaceWorkerGRPC
import FaceWorkerProtocol
import GRPCCore
import Imaging
import Logging
import WorkerCore

/// One Session call of the gRPC door: a session for the life of the stream.
///
/// The stream's requests are calls on the client's `ClientSessions` (open,
/// frames, resets, and the close once the client has ended its side and
/// every frame is answered); the session's answers come back through a
/// `SessionStreamOutput` as the stream's responses, written in the order they
/// were made. So a frame is admitted, scheduled and answered exactly as on
/// the worker's own socket.
struct SessionStream {
    let core: WorkerCore
    let streams: GRPCStreams
    let logger: Logger

    /// Serves the call until the session closes, the client cancels, or the
    /// worker stops.
    ///
    /// - Throws: `RPCError` with OpenSession's status when the session cannot
    ///   be opened, FAILED_PRECONDITION when the first request is not `open`,
    ///   UNAVAILABLE when the worker stops during the call (after every frame
    ///   read before is answered).
    func run(requests: RPCAsyncSequence<Faceworker_V1_SessionRequest, any Error>,
             response: RPCWriter<Faceworker_V1_SessionResponse>) async throws {
        let (items, continuation) = AsyncStream.makeStream(of: SessionStreamOutput.Item.self)
        let ledger = AnswerLedger()
        let core = core
        let logger = logger
        let reader = Task {
            await Self.read(requests, core: core, output: SessionStreamOutput(continuation), ledger: ledger, logger: logger)
        }
        let registration = streams.add { ledger.drain(); reader.cancel() }
        defer { streams.remove(registration) }
        do {
            try await withRPCCancellationHandler {
                try await Self.write(items, to: response, ledger: ledger)
            } onCancelRPC: {
                continuation.finish()
            }
        } catch {
            await Self.stop(reader, ledger: ledger, continuation: continuation)
            throw error
        }
        await Self.stop(reader, ledger: ledger, continuation: continuation)
    }

    /// Ends the reader and waits until its session is ended, so the session
    /// is freed before the call returns.
    private static func stop(_ reader: Task<Void, Never>, ledger: AnswerLedger,
                             continuation: AsyncStream<SessionStreamOutput.Item>.Continuation) async {
        ledger.abandon()
        continuation.finish()
        reader.cancel()
        await reader.value
    }

    /// Turns requests into calls until the client ends its side or the
    /// worker drains; then closes the session once every request is
    /// answered. An open that fails ends the call through the writer, which
    /// sees its error.
    private static func read(_ requests: RPCAsyncSequence<Faceworker_V1_SessionRequest, any Error>, core: WorkerCore,
                             output: SessionStreamOutput, ledger: AnswerLedger, logger: Logger) async {
        let admission = FrameAdmission(maxPixels: core.limits.maxPixels, buffers: nil)
        let sessions = ClientSessions(core: core, logger: logger)
        defer { sessions.end() }
        var iterator = requests.makeAsyncIterator()
        let first = try? await iterator.next()
        guard !ledger.isDraining else {
            output.refuse(CallError(.unavailable, "the worker is shutting down"))
            return
        }
        guard case .open(let open)? = first?.kind else {
            output.refuse(CallError(.failedPrecondition,
                "the first request of a Session stream must be `open` (an OpenSessionRequest with the session's options); frames and resets follow it"))
            return
        }
        // Requests are numbered for the log lines of refused calls, as the
        // worker's own socket numbers its calls.
        var request = RequestToken(1)
        let sessionID: UInt64
        do throws(CallError) {
            let (options, name) = try open.checked()
            let opening = try sessions.open(options: options, name: name, producer: output)
            sessionID = opening.sessionID
            ledger.requested()
            output.respond(.opened(Faceworker_V1_OpenSessionResponse(opening)))
        } catch {
            sessions.logRefusal(request, error, sessionID: nil)
            output.refuse(error)
            return
        }
        let unansweredLimit = core.limits.maxQueuedFrames + 64
        do {
            while true {
                await ledger.wait(untilUnansweredAtMost: unansweredLimit)
                guard let next = try await iterator.next() else { break }
                request = RequestToken(request.value + 1)
                ledger.requested()
                handle(next, request, sessionID: sessionID, sessions: sessions, admission: admission, output: output)
            }
        } catch {
            // The client's side broke off (it cancelled, or its connection went): the session is freed on the way out.
            guard ledger.isDraining else { return }
            logger.info("session stream draining", metadata: ["session": "\(sessionID)"])
        }
        await ledger.wait(untilUnansweredAtMost: 0)
        let close = RequestToken(request.value + 1)
        do throws(CallError) {
            try sessions.close(close, sessionID: sessionID)
        } catch {
            refuse(close, error, sessionID: sessionID, sessions: sessions, output: output)
        }
    }

    /// Makes the call a request of the stream stands for, or refuses it.
    private static func handle(_ next: Faceworker_V1_SessionRequest, _ request: RequestToken, sessionID: UInt64, sessions: ClientSessions,
                               admission: FrameAdmission, output: SessionStreamOutput) {
        do throws(CallError) {
            switch next.kind {
            case .frame(let frame):
                try sessions.processFrame(request, timestampMs: frame.timestampMs, sessionID: sessionID) { admission.admit(frame) }
            case .reset:
                try sessions.reset(request, sessionID: sessionID)
            case .open:
                throw CallError(.failedPrecondition,
                                "this stream's session is already open: a Session stream holds one session; open another stream for another session")
            case nil:
                throw CallError(.unimplemented, "the request is empty or of a kind this worker does not know (it speaks faceworker.v1)")
            }
        } catch {
            // A frame's error carries its timestamp, as on the worker's own socket.
            let timestampMs: Int64? = if case .frame(let frame) = next.kind { frame.timestampMs } else { nil }
            refuse(request, error, sessionID: sessionID, sessions: sessions, output: output, timestampMs: timestampMs)
        }
    }

    /// Answers a request refused at the door, in its place among the session's answers.
    private static func refuse(_ request: RequestToken, _ error: CallError, sessionID: UInt64, sessions: ClientSessions,
                               output: SessionStreamOutput, timestampMs: Int64? = nil) {
        sessions.logRefusal(request, error, sessionID: sessionID)
        output.respond(.error(Faceworker_V1_Status(error, sessionID: sessionID, timestampMs: timestampMs)))
    }

    /// Writes the responses in the order they were made, until the session's
    /// close is answered.
    private static func write(_ items: AsyncStream<SessionStreamOutput.Item>, to response: RPCWriter<Faceworker_V1_SessionResponse>,
                              ledger: AnswerLedger) async throws {
        for await item in items {
            switch item {
            case .response(let reply):
                try await response.write(reply)
                ledger.answered()
            case .refused(let error):
                throw RPCError(error)
            case .closed:
                if ledger.isDraining {
                    throw RPCError(CallError(.unavailable, "the worker is shutting down; every frame this stream sent before was answered"))
                }
                return
            }
        }
    }
}
