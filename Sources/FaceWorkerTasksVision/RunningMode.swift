/// How a task's images relate to each other (MediaPipe's running mode).
public enum RunningMode: UInt, Sendable, CaseIterable {
    /// Unrelated still images: `detect(image:)`.
    case image
    /// The decoded frames of one video, timestamps increasing:
    /// `detect(videoFrame:timestampInMilliseconds:)`. Faces are tracked.
    case video
    /// Live camera frames: `detectAsync(image:timestampInMilliseconds:)`,
    /// results delivered to the delegate. A frame that arrives while the
    /// previous one waits replaces it. Faces are tracked.
    case liveStream

    /// The name MediaPipe's errors give the mode.
    var displayName: String {
        switch self {
        case .image: "Image"
        case .video: "Video"
        case .liveStream: "Live Stream"
        }
    }

    /// The name MediaPipe's running-mode errors give the mode's task.
    var taskName: String {
        switch self {
        case .image: "image mode"
        case .video: "video mode"
        case .liveStream: "live stream mode"
        }
    }
}
