import FaceWorkerProtocol
import NIOCore
import SwiftProtobuf

extension Faceworker_V1_WorkerMessage {
    /// The message serialized and framed (5-byte header, then the payload),
    /// ready to write.
    ///
    /// Serializing a generated message fails only on invalid UTF-8 in a string
    /// field; should it ever happen, the client gets an INTERNAL status for the
    /// call instead of nothing.
    func framed(allocator: ByteBufferAllocator) -> ByteBuffer {
        let payload: [UInt8]
        do {
            payload = try serializedBytes()
        } catch {
            let fallback = Self.failure(callID: callID, .internal, "the answer could not be serialized: \(error)")
            payload = (try? fallback.serializedBytes()) ?? []
        }
        var buffer = allocator.buffer(capacity: MessageHeader.size + payload.count)
        buffer.writeInteger(MessageHeader.uncompressedFlag)
        buffer.writeInteger(UInt32(payload.count))
        buffer.writeBytes(payload)
        return buffer
    }

    /// An answer to `callID` carrying `kind`.
    init(callID: UInt64, _ kind: OneOf_Kind) {
        self.init()
        self.callID = callID
        self.kind = kind
    }

    /// An error answer to `callID`.
    static func failure(callID: UInt64, _ code: Faceworker_V1_Status.Code, _ message: String, sessionID: UInt64? = nil) -> Self {
        Self(callID: callID, .error(Faceworker_V1_Status(code, message, sessionID: sessionID)))
    }
}

extension Faceworker_V1_Status {
    /// A status with a code, a message for people and, when the call was about
    /// one, the session.
    init(_ code: Code, _ message: String, sessionID: UInt64? = nil) {
        self.init()
        self.code = code
        self.message = message
        if let sessionID { self.sessionID = sessionID }
    }
}
