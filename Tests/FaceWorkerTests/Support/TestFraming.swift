import FaceWorkerProtocol
import NIOCore
import SwiftProtobuf

/// The wire's own codec, for tests that write and read raw bytes on a socket.
enum TestFraming {
    /// `message`, serialized and framed.
    static func frame(_ message: some SwiftProtobuf.Message) throws -> [UInt8] {
        var buffer = ByteBuffer()
        try LengthPrefixedMessageEncoder().encode(data: message, out: &buffer)
        return Array(buffer.readableBytesView)
    }

    /// `payload` behind a valid header, whatever it holds.
    static func frame(payload: [UInt8]) -> [UInt8] {
        MessageHeader(length: UInt32(payload.count)).bytes + payload
    }
}

/// Received bytes, split into the worker's messages by the wire's decoder.
struct TestFrameReader {
    private var buffer = ByteBuffer()
    private let decoder = LengthPrefixedMessageDecoder(maximumMessageLength: WorkerSocket.maxAnswerBytes)

    /// Adds bytes as they arrive.
    mutating func append(_ bytes: some Sequence<UInt8>) {
        buffer.writeBytes(Array(bytes))
    }

    /// The next whole message, or nil while only part of one is in.
    mutating func next() throws -> Faceworker_V1_WorkerMessage? {
        guard let payload = try decoder.nextPayload(from: &buffer) else { return nil }
        return try Faceworker_V1_WorkerMessage(serializedBytes: Array(payload.readableBytesView))
    }
}
