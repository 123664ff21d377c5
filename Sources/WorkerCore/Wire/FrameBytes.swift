import Foundation

/// Where an admitted frame's bytes are: in the request, or in a region of one
/// of the connection's shared buffers (whose mapping the frame keeps alive).
enum FrameBytes: Sendable {
    /// Carried in the message.
    case inline(Data)
    /// Named by a region of a registered buffer.
    case shared(SharedRegion)

    /// How many bytes there are.
    var count: Int {
        switch self {
        case .inline(let data): data.count
        case .shared(let region): region.length
        }
    }

    /// Calls `body` with the bytes, valid only during the call.
    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        switch self {
        case .inline(let data): try data.withUnsafeBytes(body)
        case .shared(let region): try region.withUnsafeBytes(body)
        }
    }
}
