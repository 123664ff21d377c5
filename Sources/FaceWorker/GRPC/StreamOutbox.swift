import FaceWorkerProtocol

/// The answers of a gRPC Subscribe call, which reads them from the stream's
/// other end.
struct StreamOutbox: Outbox {
    /// One answer on its way to the call's response stream.
    struct Answer: Sendable {
        /// The answer, in the worker socket's envelope.
        var message: Faceworker_V1_WorkerMessage
        /// Called once the answer is written to the call (or the call is
        /// gone), for a subscription's bounded queue; nil for other answers.
        var written: (@Sendable () -> Void)?
    }

    private let continuation: AsyncStream<Answer>.Continuation

    /// Answers yielded to `continuation`.
    init(_ continuation: AsyncStream<Answer>.Continuation) {
        self.continuation = continuation
    }

    func send(_ messages: [Faceworker_V1_WorkerMessage]) {
        for message in messages {
            continuation.yield(Answer(message: message))
        }
    }

    func sendStream(_ writes: [(kind: StreamWrite.Kind, message: Faceworker_V1_WorkerMessage)], tracked: Int, written: @escaping @Sendable () -> Void) {
        for (index, write) in writes.enumerated() {
            let result = continuation.yield(Answer(message: write.message, written: index < tracked ? written : nil))
            if case .enqueued = result { continue }
            // The call is gone: nothing will write it, so it is written as far as the queue goes.
            if index < tracked { written() }
        }
    }

    func sendAndClose(_ message: Faceworker_V1_WorkerMessage) {
        continuation.yield(Answer(message: message))
        continuation.finish()
    }
}
