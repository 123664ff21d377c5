import FaceWorkerProtocol
import NIOCore

/// Where a client's answers go: a connection of the worker's own socket, or
/// the response stream of a gRPC call.
///
/// Answers leave in the order `send` was called, from whichever thread: an
/// inference thread's result and the client's later answers of the same
/// session (a CloseSession answer, say) reach the client in that order. A
/// closed destination drops what it is sent.
struct Outbox: SessionOutput, SubscriptionOutput {
    /// One answer on its way to a gRPC call's response stream.
    struct Answer: Sendable {
        /// The answer, in the worker socket's envelope.
        var message: Faceworker_V1_WorkerMessage
        /// Called once the answer is written to the call (or the call is
        /// gone), for a subscription's bounded queue; nil for other answers.
        var written: (@Sendable () -> Void)?
    }

    private enum Destination: Sendable {
        case connection(any Channel)
        case stream(AsyncStream<Answer>.Continuation)
    }

    private let destination: Destination

    /// Answers to a connection of the worker's own socket, serialized and
    /// framed on the sending thread and written by the channel's event loop.
    init(connection: any Channel) {
        destination = .connection(connection)
    }

    /// Answers to a gRPC call, which reads them from the stream's other end.
    init(stream: AsyncStream<Answer>.Continuation) {
        destination = .stream(stream)
    }

    /// Queues `messages` behind everything sent before.
    func send(_ messages: Faceworker_V1_WorkerMessage...) {
        send(messages)
    }

    /// Queues `messages` behind everything sent before.
    func send(_ messages: [Faceworker_V1_WorkerMessage]) {
        guard !messages.isEmpty else { return }
        switch destination {
        case .connection(let channel):
            let buffers = messages.map { $0.framed(allocator: channel.allocator) }
            // Always a task, even on the event loop, so the order of sends is the
            // order of writes whichever thread each came from.
            channel.eventLoop.execute {
                for buffer in buffers {
                    channel.write(buffer, promise: nil)
                }
                channel.flush()
            }
        case .stream(let continuation):
            for message in messages {
                continuation.yield(Answer(message: message))
            }
        }
    }

    /// Queues a session's answers, in the worker socket's envelope, behind
    /// everything sent before.
    func emit(_ answers: [SessionAnswer]) {
        send(answers.map(Faceworker_V1_WorkerMessage.init))
    }

    /// Queues a subscription's writes behind everything sent before; the
    /// first `tracked` call `written` once each is written (or dropped with
    /// its destination).
    func sendStream(_ writes: [(kind: StreamWrite.Kind, message: Faceworker_V1_WorkerMessage)], tracked: Int, written: @escaping @Sendable () -> Void) {
        switch destination {
        case .connection(let channel):
            let framed = writes.map { StreamWrite(kind: $0.kind, bytes: $0.message.framed(allocator: channel.allocator)) }
            channel.eventLoop.execute {
                for (index, write) in framed.enumerated() {
                    guard index < tracked else {
                        channel.write(write, promise: nil)
                        continue
                    }
                    let promise = channel.eventLoop.makePromise(of: Void.self)
                    promise.futureResult.whenComplete { _ in written() }
                    channel.write(write, promise: promise)
                }
                channel.flush()
            }
        case .stream(let continuation):
            for (index, write) in writes.enumerated() {
                let result = continuation.yield(Answer(message: write.message, written: index < tracked ? written : nil))
                if case .enqueued = result { continue }
                // The call is gone: nothing will write it, so it is written as far as the queue goes.
                if index < tracked { written() }
            }
        }
    }
}

extension Outbox {
    /// How long a connection refused for broken framing may keep sending
    /// before the worker closes it outright.
    static let closeGracePeriod = TimeAmount.seconds(1)

    /// Queues `message`, then ends the destination once it is written: for
    /// the status a client gets just before the worker hangs up.
    func sendAndClose(_ message: Faceworker_V1_WorkerMessage) {
        switch destination {
        case .connection(let channel):
            let buffer = message.framed(allocator: channel.allocator)
            channel.eventLoop.execute {
                // Closing while the client is still sending would reset the
                // connection and lose the status on its way; so the worker stops
                // writing, keeps reading (the broken framing discards what comes),
                // and closes once the client has seen the status and hung up, or
                // after a grace period.
                channel.writeAndFlush(buffer).whenComplete { _ in
                    channel.close(mode: .output, promise: nil)
                    channel.eventLoop.scheduleTask(in: Outbox.closeGracePeriod) { channel.close(promise: nil) }
                }
            }
        case .stream(let continuation):
            continuation.yield(Answer(message: message))
            continuation.finish()
        }
    }
}
