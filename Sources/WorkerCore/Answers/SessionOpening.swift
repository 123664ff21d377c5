import FaceDetection

/// A session just opened: what either door answers OpenSession with.
package struct SessionOpening: Sendable {
    /// The session's ID, unique in the worker.
    package var sessionID: UInt64
    /// The name it is shared under; nil for a private session.
    var name: String?
    /// The options in effect: the requested ones with every default filled in.
    var options: FaceOptions
}
