import FaceDetection
import NIOCore

/// A session as the scheduler sees it: its waiting frames and, between
/// frames, its state.
///
/// Not `Sendable`: every instance lives inside `FrameScheduler`'s lock and is
/// only touched while it is held.
final class ScheduledSession {
    /// The session's ID.
    let id: UInt64
    /// The pipeline for the session's options.
    let pipeline: FacePipeline
    /// Where its answers go.
    let outbox: Outbox
    /// Image and video frames, in the order they arrived.
    private var queue = CircularBuffer<PendingFrame>()
    /// The live-stream frame waiting, if any.
    private var latest = LatestFrameSlot<PendingFrame>()
    /// The tracking state; nil while an inference thread holds it, which is
    /// how a session is processed by one thread at a time.
    var state: FaceSessionState? = FaceSessionState()
    /// Whether the session is in the scheduler's ready queue.
    var isReady = false
    /// Whether the state must be reset when the thread gives it back.
    var resetPending = false
    /// The CloseSession call to answer once the running frame is answered.
    var closeCallID: UInt64?

    init(id: UInt64, pipeline: FacePipeline, outbox: Outbox) {
        self.id = id
        self.pipeline = pipeline
        self.outbox = outbox
    }

    /// Whether a thread is processing one of its frames.
    var isRunning: Bool { state == nil }

    /// Whether a frame waits.
    var hasWaitingFrames: Bool {
        isLiveStream ? !latest.isEmpty : !queue.isEmpty
    }

    private var isLiveStream: Bool { pipeline.options.runningMode == .liveStream }

    /// Adds a frame: a live-stream frame replaces the waiting one (returned),
    /// other frames queue up to `maxQueued`.
    func add(_ frame: PendingFrame, maxQueued: Int) -> FrameScheduler.SubmitOutcome {
        if isLiveStream {
            return latest.offer(frame).map { .replaced($0) } ?? .queued
        }
        guard queue.count < maxQueued else { return .queueFull }
        queue.append(frame)
        return .queued
    }

    /// Takes the next frame to process.
    func takeNext() -> PendingFrame? {
        isLiveStream ? latest.take() : queue.popFirst()
    }

    /// Takes every waiting frame, oldest first.
    func takeAllWaiting() -> [PendingFrame] {
        var frames: [PendingFrame] = []
        while let frame = takeNext() { frames.append(frame) }
        return frames
    }
}
