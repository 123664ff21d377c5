import FaceWorkerProtocol
import NIOCore

/// The answers of a connection of the worker's own socket, serialized and
/// framed on the sending thread and written by the channel's event loop.
struct ConnectionOutbox: Outbox {
    /// How long a connection refused for broken framing may keep sending
    /// before the worker closes it outright.
    static let closeGracePeriod = TimeAmount.seconds(1)

    private let channel: any Channel

    /// Answers written to `channel`.
    init(_ channel: any Channel) {
        self.channel = channel
    }

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

    func sendStream(_ writes: [(kind: StreamWrite.Kind, message: Faceworker_V1_WorkerMessage)], tracked: Int, written: @escaping @Sendable () -> Void) {
        let channel = channel
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
    }

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
