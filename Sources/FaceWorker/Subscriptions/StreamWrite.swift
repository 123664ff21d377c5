import NIOCore

/// A write of a subscription's stream rather than an answer to a call, so
/// that the drain handler, which closes a connection once every call read has
/// its answer, can tell them apart.
///
/// A subscription owes its connection one last write (SessionEnded) from the
/// moment it is opened: `opened` answers the Subscribe call and opens that
/// debt, `ended` settles it, and `event` neither answers nor owes anything.
struct StreamWrite {
    /// What the write is to the count of calls and answers.
    enum Kind {
        /// The SubscribeResponse.
        case opened
        /// An event between the response and the end.
        case event
        /// The SessionEnded event.
        case ended
    }

    /// Its place in the stream.
    var kind: Kind
    /// The framed message.
    var bytes: ByteBuffer
}
