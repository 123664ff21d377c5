import FaceWorkerProtocol

/// A Subscribe written by hand, for tests that drive a subscriber on a
/// `UnixSocket` or an in-process connection.
extension Faceworker_V1_ClientMessage {
    /// A Subscribe call.
    static func subscribe(callID: UInt64, name: String) -> Self {
        var message = Self()
        message.callID = callID
        message.subscribe.name = name
        return message
    }
}
