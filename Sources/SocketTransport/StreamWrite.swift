import NIOCore

/// A write of a subscription's stream rather than an answer to a call, so
/// that the drain handler, which closes a connection once every call read has
/// its answer, can tell them apart.
///
/// A Subscribe call is answered by its subscription's last write
/// (SessionEnded), not by its first (SubscribeResponse): a subscription owes
/// its connection that end from the moment it opens, and the events in
/// between answer nothing.
struct StreamWrite {
    /// Whether the write is the subscription's end, which answers its call.
    var isEnd: Bool
    /// The framed message.
    var bytes: ByteBuffer
}
