import FaceWorkerProtocol
import NIOCore
import WorkerCore

/// Where the answers of a connection of the worker's own socket go: its
/// calls' answers, its sessions' answers and its subscriptions' events, each
/// made into the socket's envelope, serialized and framed on the sending
/// thread and written by the channel's event loop.
///
/// Answers leave in the order they were sent, from whichever thread: an
/// inference thread's result and the client's later answers of the same
/// session (a CloseSession answer, say) reach the client in that order. A
/// closed channel drops what it is sent.
struct ConnectionOutbox: SessionOutput, SubscriptionOutput {
    /// How long a connection refused for broken framing may keep sending
    /// before the worker closes it outright.
    static let closeGracePeriod = TimeAmount.seconds(1)

    private let channel: any Channel

    /// Answers written to `channel`.
    init(_ channel: any Channel) {
        self.channel = channel
    }

    /// Queues `messages` behind everything sent before.
    func send(_ messages: [Faceworker_V1_WorkerMessage]) {
        guard !messages.isEmpty else { return }
        let channel = channel
        let buffers = messages.map { $0.framed(allocator: channel.allocator) }
        // Always a task, even on the event loop, so the order of sends is the
        // order of writes whichever thread each came from.
        channel.eventLoop.execute {
            for buffer in buffers {
                channel.write(buffer, promise: nil)
            }
            channel.flush()
        }
    }

    /// Queues a session's answers behind everything sent before.
    func emit(_ answers: [SessionAnswer]) {
        send(answers.map(Faceworker_V1_WorkerMessage.init))
    }

    func deliver(_ events: [SubscriptionEvent], subscriptionID: UInt64, request: RequestToken, tracked: Int,
                 written: @escaping @Sendable () -> Void) {
        let channel = channel
        let framed = events.map { event in
            Faceworker_V1_WorkerMessage(event, subscriptionID: subscriptionID, callID: request.value).map {
                StreamWrite(isEnd: event.isEnd, bytes: $0.framed(allocator: channel.allocator))
            }
        }
        channel.eventLoop.execute {
            for (index, write) in framed.enumerated() {
                guard index < tracked else {
                    if let write { channel.write(write, promise: nil) }
                    continue
                }
                // An event with no wire form is written as far as the queue goes.
                guard let write else {
                    written()
                    continue
                }
                let promise = channel.eventLoop.makePromise(of: Void.self)
                promise.futureResult.whenComplete { _ in written() }
                channel.write(write, promise: promise)
            }
            channel.flush()
        }
    }

    /// Queues `messages` behind everything sent before.
    func send(_ messages: Faceworker_V1_WorkerMessage...) {
        send(messages)
    }

    /// Queues `message`, then ends the connection once it is written: for
    /// the status a client gets just before the worker hangs up.
    func sendAndClose(_ message: Faceworker_V1_WorkerMessage) {
        let channel = channel
        let buffer = message.framed(allocator: channel.allocator)
        channel.eventLoop.execute {
            // Closing while the client is still sending would reset the
            // connection and lose the status on its way; so the worker stops
            // writing, keeps reading (the broken framing discards what comes),
            // and closes once the client has seen the status and hung up, or
            // after a grace period.
            channel.writeAndFlush(buffer).whenComplete { _ in
                channel.close(mode: .output, promise: nil)
                channel.eventLoop.scheduleTask(in: Self.closeGracePeriod) { channel.close(promise: nil) }
            }
        }
    }
}
