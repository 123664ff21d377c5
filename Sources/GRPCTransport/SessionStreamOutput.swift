import FaceWorkerProtocol
import WorkerCore

/// A gRPC Session stream's side of its session: the session's answers,
/// turned into the stream's responses as they are made, for the stream's
/// writer to send in that order.
struct SessionStreamOutput: SessionOutput {
    /// What the writer does next.
    enum Item: Sendable {
        /// Writes a response.
        case response(Faceworker_V1_SessionResponse)
        /// Ends the call with a status: the session could not open.
        case refused(CallError)
        /// The session closed: the call ends.
        case closed
    }

    private let continuation: AsyncStream<Item>.Continuation

    /// Output read from the other end of `continuation`.
    init(_ continuation: AsyncStream<Item>.Continuation) {
        self.continuation = continuation
    }

    func emit(_ answers: [SessionAnswer]) {
        for answer in answers {
            continuation.yield(Self.item(answer))
        }
    }

    /// Queues a response that answers no frame of the session (the open, or
    /// a request refused at the door), behind the answers before it.
    func respond(_ kind: Faceworker_V1_SessionResponse.OneOf_Kind) {
        continuation.yield(.response(.with { $0.kind = kind }))
    }

    /// Ends the call with `error`'s status once the answers before it are written.
    func refuse(_ error: CallError) {
        continuation.yield(.refused(error))
        continuation.finish()
    }

    private static func item(_ answer: SessionAnswer) -> Item {
        typealias Kind = Faceworker_V1_SessionResponse.OneOf_Kind
        let kind = answer.wire(result: Kind.result, dropped: Kind.dropped, error: Kind.error, reset: Kind.reset)
        return kind.map { kind -> Item in .response(.with { $0.kind = kind }) } ?? .closed
    }
}
