import FaceDetection
import FaceWorkerProtocol
import Foundation
import Logging
import NIOCore
import SwiftProtobuf

/// The calls a client makes, made once by the worker itself before its
/// socket opens, so that the first client's first frame is not the one to
/// pay for code nothing has run yet.
///
/// The inference threads' warm-up runs every model and pipeline, but not the
/// path of a call around them. On a fresh worker, the first frame of the first
/// session took about 0.2 ms longer to get in and out, and 0.1 ms longer to
/// reach an inference thread, than the first frame of any later session:
/// the first use of the session, scheduling and wire code (the runtime's type
/// metadata and conformance look-ups, the protobuf messages, the first
/// hand-over to a thread). Each warm-up session makes its calls as the
/// socket's and gRPC's doors do: an OpenSession and a ProcessFrame parsed from
/// their bytes, the frame through admission, the scheduler and an inference
/// thread, and its answer serialized.
///
/// Its frames are left out of the counters and metrics, and its sessions'
/// opening and closing are not logged; their frames are, at debug level, as
/// every frame is.
package struct CallWarmUp {
    /// A JPEG frame the pipelines find a face in, so every stage runs.
    package let jpeg: [UInt8]
    /// One session's options per pipeline to warm.
    package let sessions: [FaceOptions]

    /// A warm-up of one session per entry of `sessions`, each sent `jpeg`.
    package init(jpeg: [UInt8], sessions: [FaceOptions]) {
        self.jpeg = jpeg
        self.sessions = sessions
    }

    /// Opens each session on `core`, sends it the frame, waits for the answer
    /// and closes it, one session at a time.
    ///
    /// - Returns: the number of frames answered with a result; a failure is
    ///   logged as a warning and does not stop the others.
    @discardableResult
    package func run(on core: WorkerCore, logger: Logger) async -> Int {
        var quiet = logger
        quiet.logLevel = max(logger.logLevel, .notice)
        var answered = 0
        for options in sessions {
            // A client of its own per session, as if each came and went.
            let calls = ClientSessions(core: core, logger: quiet, counted: false)
            let (answers, output) = AsyncStream.makeStream(of: SessionAnswer.self)
            defer { output.finish() }
            do {
                guard let answer = try await warm(options, on: calls, answers: answers, output: WarmUpOutput(answers: output)) else {
                    // Cancelled: the worker is stopping before it was ready.
                    calls.end()
                    return answered
                }
                if case .result = answer.output {
                    answered += 1
                } else {
                    logger.warning("the warm-up frame was not answered with a result", metadata: ["answer": "\(answer.output)"])
                }
            } catch {
                logger.warning("a warm-up call failed; the worker serves on", metadata: ["error": "\(error)"])
                calls.end()
            }
        }
        return answered
    }

    /// One session's calls: opened, sent the frame, closed once it is
    /// answered. The frame's answer, or nil when cancelled before it came.
    private func warm(_ options: FaceOptions, on calls: ClientSessions, answers: AsyncStream<SessionAnswer>,
                      output: WarmUpOutput) async throws -> SessionAnswer? {
        let opening = try Self.parsed(.openSession(.with { $0.options = Faceworker_V1_SessionOptions(effective: options) }))
        guard case .openSession(let openRequest) = opening.kind else { preconditionFailure("an OpenSession parsed as another call") }
        let (checked, name) = try openRequest.checked()
        let sessionID = try calls.open(options: checked, name: name, producer: output).sessionID
        let frame = try Self.parsed(.processFrame(.with {
            $0.sessionID = sessionID
            $0.frame = .with { $0.timestampMs = 0; $0.jpeg = Data(jpeg) }
        }))
        guard case .processFrame(let request) = frame.kind else { preconditionFailure("a ProcessFrame parsed as another call") }
        let admission = FrameAdmission(maxPixels: calls.core.limits.maxPixels, buffers: nil)
        try calls.processFrame(RequestToken(frame.callID), timestampMs: request.frame.timestampMs, sessionID: sessionID) {
            admission.admit(request.frame)
        }
        var iterator = answers.makeAsyncIterator()
        guard let answer = await iterator.next() else { return nil }
        _ = Faceworker_V1_WorkerMessage(answer).framed(allocator: ByteBufferAllocator())
        try calls.close(RequestToken(frame.callID + 1), sessionID: sessionID)
        _ = await iterator.next()
        return answer
    }

    /// The call as the worker receives it: serialized by a client and parsed
    /// back from a buffer, as the socket's door parses it.
    private static func parsed(_ kind: Faceworker_V1_ClientMessage.OneOf_Kind) throws -> Faceworker_V1_ClientMessage {
        let sent = Faceworker_V1_ClientMessage.with { $0.callID = 1; $0.kind = kind }
        let received = ByteBuffer(bytes: try sent.serializedBytes() as [UInt8])
        return try Faceworker_V1_ClientMessage(serializedBytes: received.readableBytesSpan)
    }
}

/// Where a warm-up session's answers go: to the warm-up, one at a time.
private struct WarmUpOutput: SessionOutput {
    let answers: AsyncStream<SessionAnswer>.Continuation

    func emit(_ answers: [SessionAnswer]) {
        for answer in answers {
            self.answers.yield(answer)
        }
    }
}
