import FaceWorkerProtocol
import NIOCore

/// Where a session's answers go: its connection's channel.
///
/// Answers are serialized and framed on the sending thread, with the wire's
/// one encoder, and written by the channel's event loop in the order `send`
/// was called, from whichever thread: an inference thread's result and the
/// connection's later answers of the same session (a CloseSession answer,
/// say) reach the socket in that order. A closed channel drops what it is sent.
struct Outbox: Sendable {
    /// The connection.
    let channel: any Channel

    /// Queues `messages` behind everything sent before.
    func send(_ messages: Faceworker_V1_WorkerMessage...) {
        send(messages)
    }

    /// Queues `messages` behind everything sent before.
    func send(_ messages: [Faceworker_V1_WorkerMessage]) {
        guard !messages.isEmpty else { return }
        let channel = channel
        let buffers = messages.map { Self.framed($0, allocator: channel.allocator) }
        // Always a task, even on the event loop, so the order of sends is the
        // order of writes whichever thread each came from.
        channel.eventLoop.execute {
            for buffer in buffers {
                channel.write(buffer, promise: nil)
            }
            channel.flush()
        }
    }

    /// The message framed for the wire.
    ///
    /// Serializing a generated message fails only on invalid UTF-8 in a string
    /// field; should it ever happen, the client gets an INTERNAL status for the
    /// call instead of nothing.
    static func framed(_ message: Faceworker_V1_WorkerMessage, allocator: ByteBufferAllocator) -> ByteBuffer {
        let encoder = LengthPrefixedMessageEncoder<Faceworker_V1_WorkerMessage>()
        do {
            return try encoder.framed(message, allocator: allocator)
        } catch {
            let fallback = Faceworker_V1_WorkerMessage.failure(callID: message.callID, CallError(.internal, "the answer could not be serialized: \(error)"))
            return (try? encoder.framed(fallback, allocator: allocator)) ?? allocator.buffer(capacity: 0)
        }
    }
}

extension Outbox {
    /// How long a connection refused for broken framing may keep sending
    /// before the worker closes it outright.
    static let closeGracePeriod = TimeAmount.seconds(1)

    /// Queues `message`, then closes the connection once it is written: for
    /// the status a connection gets just before the worker hangs up.
    func sendAndClose(_ message: Faceworker_V1_WorkerMessage) {
        let channel = channel
        let buffer = Self.framed(message, allocator: channel.allocator)
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
    }
}
