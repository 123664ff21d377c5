import FaceWorkerProtocol
import NIOCore

extension Faceworker_V1_WorkerMessage {
    /// The message framed for the worker's own socket.
    ///
    /// Serializing a generated message fails only on invalid UTF-8 in a string
    /// field; should it ever happen, the client gets an INTERNAL status for the
    /// call instead of nothing.
    package func framed(allocator: ByteBufferAllocator) -> ByteBuffer {
        let encoder = LengthPrefixedMessageEncoder<Faceworker_V1_WorkerMessage>()
        do {
            return try encoder.framed(self, allocator: allocator)
        } catch {
            let fallback = Self.failure(callID: callID, CallError(.internal, "the answer could not be serialized: \(error)"))
            return (try? encoder.framed(fallback, allocator: allocator)) ?? allocator.buffer(capacity: 0)
        }
    }
}
