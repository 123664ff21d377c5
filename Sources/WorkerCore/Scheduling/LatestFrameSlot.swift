/// The live-stream waiting room: at most one frame waits, and a newer frame
/// replaces it, as MediaPipe's flow limiter (one in flight, one queued, the
/// older queued frame dropped) does.
struct LatestFrameSlot<Frame>: ~Copyable {
    private var waiting: Frame?

    /// An empty slot.
    init() {}

    /// Puts `frame` in the slot and returns the frame it replaced, which the
    /// caller must report as dropped.
    mutating func offer(_ frame: Frame) -> Frame? {
        let replaced = waiting
        waiting = frame
        return replaced
    }

    /// Takes the waiting frame, if any.
    mutating func take() -> Frame? {
        let frame = waiting
        waiting = nil
        return frame
    }

    /// Whether a frame is waiting.
    var isEmpty: Bool { waiting == nil }
}

extension LatestFrameSlot: Sendable where Frame: Sendable {}
