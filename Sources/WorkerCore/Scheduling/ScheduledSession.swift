import FaceDetection
import NIOCore

/// A session as the worker keeps it, the one owner of its state: its running
/// mode's timestamp rule, its tracking state between frames, and the frames
/// waiting for a thread.
///
/// Not `Sendable`: every instance lives inside `FrameScheduler`'s lock and is
/// only touched while it is held.
final class ScheduledSession {
    /// The session's ID.
    let id: UInt64
    /// The pipeline for the session's options.
    let pipeline: any SessionPipeline
    /// Where its answers go.
    let output: any SessionOutput
    /// Whether its frames count in the worker's counters and metrics.
    let counted: Bool
    /// Image and video work, in the order it arrived.
    private var queue = CircularBuffer<SessionWork>()
    /// The live-stream frame waiting, if any.
    private var latest = LatestFrameSlot<PendingFrame>()
    /// The running mode's timestamp rule, applied as frames are accepted (a
    /// frame waiting for a thread already passed it), and the tracker, lent
    /// to one inference thread at a time: how a session is processed by one
    /// thread at a time.
    private var frames: SessionFrames
    /// Whether the session is in the scheduler's ready queue.
    var isReady = false
    /// The close to answer once the running work is answered.
    var closeRequest: RequestToken?

    init(id: UInt64, pipeline: any SessionPipeline, output: any SessionOutput, counted: Bool) {
        self.id = id
        self.pipeline = pipeline
        self.output = output
        self.counted = counted
        frames = SessionFrames(mode: pipeline.options.runningMode)
    }

    /// Whether a thread is processing one of its frames.
    var isRunning: Bool { frames.isTrackerLent }

    /// Whether work waits.
    var hasWaitingFrames: Bool {
        isLiveStream ? !latest.isEmpty : !queue.isEmpty
    }

    /// How many frames wait (a refusal waiting its turn takes a place too).
    var waitingCount: Int {
        isLiveStream ? (latest.isEmpty ? 0 : 1) : queue.count
    }

    private var isLiveStream: Bool { pipeline.options.runningMode == .liveStream }

    /// Takes a frame that passed admission (or the reason it did not): checks
    /// its timestamp, then queues it (a live-stream frame replaces the waiting
    /// one) or its refusal, which waits its turn behind the session's earlier
    /// frames in image and video mode.
    func accept(request: RequestToken, _ admission: Result<AdmittedFrame, CallError>, timestampMs: Int64,
                received: ContinuousClock.Instant, receivedUnixMicros: Int64, maxQueued: Int) -> FrameScheduler.SubmitOutcome {
        let frame: AdmittedFrame
        switch admission.flatMap(checkTimestamp) {
        case .success(let checked):
            frame = checked
        case .failure(let error):
            guard !isLiveStream, isRunning || hasWaitingFrames, queue.count < maxQueued else { return .refused(error, inTurn: false) }
            queue.append(.refusal(request: request, timestampMs: timestampMs, error))
            return .refused(error, inTurn: true)
        }
        guard isLiveStream || queue.count < maxQueued else { return .queueFull }
        frames.record(frame.timestampMs)
        let pending = PendingFrame(request: request, frame: frame, received: received, receivedUnixMicros: receivedUnixMicros)
        if isLiveStream {
            return latest.offer(pending).map { .replaced($0) } ?? .queued
        }
        queue.append(.frame(pending))
        return .queued
    }

    private func checkTimestamp(_ frame: AdmittedFrame) -> Result<AdmittedFrame, CallError> {
        do throws(FaceError) {
            try frames.check(frame.timestampMs)
            return .success(frame)
        } catch {
            return .failure(CallError(error))
        }
    }

    /// Takes the next work to do.
    func takeNext() -> SessionWork? {
        isLiveStream ? latest.take().map { .frame($0) } : queue.popFirst()
    }

    /// Takes all waiting work, oldest first.
    func takeAllWaiting() -> [SessionWork] {
        var work: [SessionWork] = []
        while let next = takeNext() { work.append(next) }
        return work
    }

    /// Forgets tracked faces and the last timestamp (the tracker once the
    /// running frame gives it back), and returns the waiting work.
    func reset() -> [SessionWork] {
        frames.reset()
        return takeAllWaiting()
    }

    /// The next work and the tracker to run it with, lent until `finish`;
    /// nil while a frame of the session runs or when nothing waits.
    func startNext() -> (SessionWork, FaceTracker)? {
        guard !isRunning, let work = takeNext(), let tracker = frames.lendTracker() else { return nil }
        return (work, tracker)
    }

    /// Takes back the tracker a finished frame updated.
    func finish(returning tracker: FaceTracker) {
        frames.returnTracker(tracker)
    }
}
