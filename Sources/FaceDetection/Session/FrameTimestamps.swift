/// The running modes' rule for timestamps, kept in one place for every
/// session owner: in video and live-stream modes each frame's timestamp must
/// exceed the last accepted one's (MediaPipe: "input timestamp must be
/// monotonically increasing"); in image mode frames are unrelated and their
/// timestamps are only echoed.
package struct FrameTimestamps: Sendable {
    /// The session's running mode.
    package let mode: FaceOptions.RunningMode
    /// The last accepted timestamp, in milliseconds (video and live stream).
    package private(set) var lastAccepted: Int64?

    /// No frame accepted yet.
    package init(mode: FaceOptions.RunningMode) {
        self.mode = mode
    }

    /// Checks the next frame's timestamp without accepting it, for an owner
    /// that may still refuse the frame for another reason.
    package func check(_ timestampMs: Int64?) throws(FaceError) {
        guard mode != .image else { return }
        guard let timestampMs else {
            throw .invalidArgument("timestamp_ms is required in \(mode) mode")
        }
        if let last = lastAccepted, timestampMs <= last {
            throw .invalidArgument("timestamp_ms must increase from frame to frame in \(mode) mode: got \(timestampMs) after \(last)")
        }
    }

    /// Accepts the next frame's timestamp, or says why not; a refused
    /// timestamp leaves the rule as it was, so the session stays usable.
    package mutating func accept(_ timestampMs: Int64?) throws(FaceError) {
        try check(timestampMs)
        record(timestampMs)
    }

    /// Accepts a timestamp that ``check(_:)`` passed.
    package mutating func record(_ timestampMs: Int64?) {
        if mode != .image { lastAccepted = timestampMs }
    }

    /// Forgets the last timestamp: the next frame may start anywhere.
    package mutating func reset() {
        lastAccepted = nil
    }
}
