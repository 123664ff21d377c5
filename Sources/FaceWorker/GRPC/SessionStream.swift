import FaceDetection
import FaceWorkerGRPC
import FaceWorkerProtocol
import GRPCCore
import Imaging
import Logging

/// One Session call of the gRPC door: a session for the life of the stream.
///
/// The stream's requests become the calls a client of the worker's own
/// socket would make (OpenSession, ProcessFrame, ResetSession, and
/// CloseSession once the client has ended its side and every frame is
/// answered), handled by a `ClientCalls` of its own; their answers come back
/// through an `Outbox` and are written to the stream in the order they were
/// made. So a frame is admitted, scheduled and answered exactly as on the
/// worker's own socket.
struct SessionStream {
    private static let openCallID: UInt64 = 1

    let worker: WorkerContext
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
        let (answers, continuation) = AsyncStream.makeStream(of: Outbox.Answer.self)
        let progress = SessionStreamProgress()
        let worker = worker
        let logger = logger
        let reader = Task {
            await Self.read(requests, worker: worker, outbox: Outbox(stream: continuation), progress: progress, logger: logger)
        }
        let registration = streams.add { progress.drain(); reader.cancel() }
        defer { streams.remove(registration) }
        do {
            try await withRPCCancellationHandler {
                try await Self.write(answers, to: response, progress: progress)
            } onCancelRPC: {
                continuation.finish()
            }
        } catch {
            await Self.stop(reader, progress: progress, continuation: continuation)
            throw error
        }
        await Self.stop(reader, progress: progress, continuation: continuation)
    }

    /// Ends the reader and waits until its client calls are ended, so the
    /// session is freed before the call returns.
    private static func stop(_ reader: Task<Void, Never>, progress: SessionStreamProgress, continuation: AsyncStream<Outbox.Answer>.Continuation) async {
        progress.abandon()
        continuation.finish()
        reader.cancel()
        await reader.value
    }

    /// Turns requests into calls until the client ends its side or the
    /// worker drains; then closes the session once every request is
    /// answered. An open that fails ends the call through the writer, which
    /// sees its error.
    private static func read(_ requests: RPCAsyncSequence<Faceworker_V1_SessionRequest, any Error>, worker: WorkerContext, outbox: Outbox,
                             progress: SessionStreamProgress, logger: Logger) async {
        let calls: ClientCalls
        do throws(ImagingError) {
            calls = try ClientCalls(worker: worker, outbox: outbox, peerPID: nil, logger: logger)
        } catch {
            outbox.sendAndClose(.failure(callID: openCallID, CallError(FaceError(error))))
            return
        }
        defer { calls.end() }
        var iterator = requests.makeAsyncIterator()
        let first = try? await iterator.next()
        guard !progress.isDraining else {
            outbox.sendAndClose(.failure(callID: openCallID, CallError(.unavailable, "the worker is shutting down")))
            return
        }
        guard case .open(let open)? = first?.kind else {
            outbox.sendAndClose(.failure(callID: openCallID, CallError(.failedPrecondition,
                "the first request of a Session stream must be `open` (an OpenSessionRequest with the session's options); frames and resets follow it")))
            return
        }
        progress.issued()
        calls.handle(Faceworker_V1_ClientMessage.with {
            $0.callID = openCallID
            $0.openSession = open
        })
        guard let sessionID = calls.sessions.keys.first else { return }
        let unansweredLimit = worker.configuration.limits.maxQueuedFrames + 64
        var callID = openCallID
        do {
            while true {
                await progress.wait(untilUnansweredAtMost: unansweredLimit)
                guard let request = try await iterator.next() else { break }
                callID += 1
                progress.issued()
                handle(request, callID: callID, sessionID: sessionID, calls: calls)
            }
        } catch {
            // The client's side broke off (it cancelled, or its connection went): the session is freed on the way out.
            guard progress.isDraining else { return }
            logger.info("session stream draining", metadata: ["session": "\(sessionID)"])
        }
        await progress.wait(untilUnansweredAtMost: 0)
        calls.handle(Faceworker_V1_ClientMessage.with {
            $0.callID = callID + 1
            $0.closeSession.sessionID = sessionID
        })
    }

    /// Makes the call a request of the stream stands for, or refuses it.
    private static func handle(_ request: Faceworker_V1_SessionRequest, callID: UInt64, sessionID: UInt64, calls: ClientCalls) {
        switch request.kind {
        case .frame(let frame):
            calls.handle(Faceworker_V1_ClientMessage.with {
                $0.callID = callID
                $0.processFrame.sessionID = sessionID
                $0.processFrame.frame = frame
            })
        case .reset:
            calls.handle(Faceworker_V1_ClientMessage.with {
                $0.callID = callID
                $0.resetSession.sessionID = sessionID
            })
        case .open:
            calls.fail(callID: callID, CallError(.failedPrecondition,
                       "this stream's session is already open: a Session stream holds one session; open another stream for another session"),
                       sessionID: sessionID)
        case nil:
            calls.fail(callID: callID, CallError(.unimplemented, "the request is empty or of a kind this worker does not know (it speaks faceworker.v1)"),
                       sessionID: sessionID)
        }
    }

    /// Writes the answers in the order they were made, until the session's
    /// close is answered.
    private static func write(_ answers: AsyncStream<Outbox.Answer>, to response: RPCWriter<Faceworker_V1_SessionResponse>,
                              progress: SessionStreamProgress) async throws {
        for await answer in answers {
            let message = answer.message
            let reply: Faceworker_V1_SessionResponse.OneOf_Kind
            switch message.kind {
            case .openSession(let opened):
                reply = .opened(opened)
            case .error(let status) where message.callID == openCallID:
                throw RPCError(status)
            case .error(let status):
                reply = .error(status)
            case .frameResult(let result):
                reply = .result(result)
            case .frameDropped(let dropped):
                reply = .dropped(dropped)
            case .resetSession(let reset):
                reply = .reset(reset)
            case .closeSession:
                if progress.isDraining {
                    throw RPCError(CallError(.unavailable, "the worker is shutting down; every frame this stream sent before was answered"))
                }
                return
            default:
                continue
            }
            try await response.write(.with { $0.kind = reply })
            progress.answered()
        }
    }
}
