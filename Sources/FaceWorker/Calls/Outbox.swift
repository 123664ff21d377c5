import FaceWorkerProtocol

/// Where a client's answers go, in the worker socket's envelope: the
/// transport the client came through supplies it (`ConnectionOutbox` for a
/// connection of the worker's own socket, `StreamOutbox` for a gRPC
/// Subscribe call).
///
/// Answers leave in the order they were sent, from whichever thread: an
/// inference thread's result and the client's later answers of the same
/// session (a CloseSession answer, say) reach the client in that order. A
/// closed destination drops what it is sent.
protocol Outbox: SessionOutput, SubscriptionOutput {
    /// Queues `messages` behind everything sent before.
    func send(_ messages: [Faceworker_V1_WorkerMessage])

    /// Queues `message`, then ends the destination once it is written: for
    /// the status a client gets just before the worker hangs up.
    func sendAndClose(_ message: Faceworker_V1_WorkerMessage)
}

extension Outbox {
    /// Queues `messages` behind everything sent before.
    func send(_ messages: Faceworker_V1_WorkerMessage...) {
        send(messages)
    }

    /// Queues a session's answers, in the worker socket's envelope, behind
    /// everything sent before.
    func emit(_ answers: [SessionAnswer]) {
        send(answers.map(Faceworker_V1_WorkerMessage.init))
    }
}
