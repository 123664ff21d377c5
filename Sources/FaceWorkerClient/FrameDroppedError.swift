import FaceWorkerProtocol

/// A frame the worker accepted but never processed, thrown by
/// `FaceWorkerSession.process`: replaced by a newer frame (live stream) or
/// dropped by a reset or close of its session.
package struct FrameDroppedError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The worker's notice.
    public var notice: Faceworker_V1_FrameDropped

    /// Wraps the worker's notice.
    public init(_ notice: Faceworker_V1_FrameDropped) {
        self.notice = notice
    }

    public var description: String {
        "frame \(notice.timestampMs) ms of session \(notice.sessionID) was dropped: \(notice.reason)"
    }
}
