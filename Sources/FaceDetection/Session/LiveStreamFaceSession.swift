import Foundation
import Imaging
import Inference
import Synchronization

/// What a live-stream session delivers, in order.
public enum LiveStreamEvent: Sendable {
    /// A processed frame.
    case result(FaceResult)
    /// A frame that was replaced by a newer one before it could be processed.
    case dropped(timestampMs: Int64)
    /// A frame that failed in processing.
    case failed(timestampMs: Int64, error: FaceError)
}

/// A face detector in live-stream mode: `send` never waits; frames are
/// processed on the session's own thread, and while one is processed at most
/// one more waits — a newer frame replaces it and the replaced one is reported
/// dropped. Results arrive on `events` with their timestamps.
public final class LiveStreamFaceSession: Sendable {
    /// Results, drops and failures, in the order they happen.
    public let events: AsyncStream<LiveStreamEvent>
    private let continuation: AsyncStream<LiveStreamEvent>.Continuation
    private let mailbox = Mailbox()

    /// Creates the session and starts its processing thread.
    public init(models: FaceModels, options: FaceOptions, threads: Int = 1) throws(FaceError) {
        var options = options
        options.runningMode = .liveStream
        let pipeline = try FacePipeline(models: models, options: options)
        let pool = try ThreadPool.forSession(threads: threads)
        let (events, continuation) = AsyncStream.makeStream(of: LiveStreamEvent.self, bufferingPolicy: .unbounded)
        self.events = events
        self.continuation = continuation
        let mailbox = self.mailbox
        // The thread holds the mailbox, not the session, so dropping the session closes it.
        Thread {
            // The engine is created on, and never leaves, this thread.
            let engine = FaceEngine(models: models, threadPool: pool)
            var sessionState = FaceSessionState()
            while let (image, timestamp) = mailbox.next(resetting: &sessionState) {
                do throws(FaceError) {
                    continuation.yield(.result(try pipeline.process(image, timestampMs: timestamp, state: &sessionState, engine: engine)))
                } catch {
                    continuation.yield(.failed(timestampMs: timestamp, error: error))
                }
            }
            continuation.finish()
        }.start()
    }

    deinit {
        mailbox.close()
    }

    /// Submits a frame without waiting. The timestamp must exceed the previous
    /// frame's, else `invalidArgument` is thrown and nothing is queued.
    public func send(_ image: RGBImage, timestampMs: Int64) throws(FaceError) {
        if let replaced = try mailbox.offer(image, timestampMs: timestampMs) {
            continuation.yield(.dropped(timestampMs: replaced))
        }
    }

    /// Forgets tracked faces and timestamps before the next frame; a waiting
    /// frame is dropped.
    public func reset() {
        if let replaced = mailbox.reset() {
            continuation.yield(.dropped(timestampMs: replaced))
        }
    }

    /// Stops accepting frames; the frame in progress and the waiting one are
    /// still delivered, then `events` finishes.
    public func close() {
        mailbox.close()
    }
}

/// The hand-over between `send` and the processing thread.
private final class Mailbox: Sendable {
    private struct Shared: ~Copyable {
        var slot = LatestFrameSlot<(RGBImage, Int64)>()
        var lastSubmitted: Int64?
        var resetRequested = false
        var closed = false
    }

    private let state = Mutex(Shared())
    private let wake = DispatchSemaphore(value: 0)

    /// Queues a frame and returns the timestamp of the frame it replaced.
    func offer(_ image: RGBImage, timestampMs: Int64) throws(FaceError) -> Int64? {
        let outcome: Result<Int64?, FaceError> = state.withLock { shared in
            if shared.closed { return .failure(.failedPrecondition("the session is closed")) }
            if let last = shared.lastSubmitted, timestampMs <= last {
                return .failure(.invalidArgument("Input timestamp must be monotonically increasing: got \(timestampMs) ms after \(last) ms"))
            }
            shared.lastSubmitted = timestampMs
            return .success(shared.slot.offer((image, timestampMs))?.1)
        }
        let replaced = try outcome.get()
        wake.signal()
        return replaced
    }

    func reset() -> Int64? {
        let replaced = state.withLock { shared in
            shared.resetRequested = true
            shared.lastSubmitted = nil
            return shared.slot.take()?.1
        }
        wake.signal()
        return replaced
    }

    func close() {
        state.withLock { $0.closed = true }
        wake.signal()
    }

    /// Blocks until a frame waits (returned) or the session closes (nil).
    func next(resetting sessionState: inout FaceSessionState) -> (RGBImage, Int64)? {
        while true {
            let (frame, closed, reset) = state.withLock { shared in
                defer { shared.resetRequested = false }
                return (shared.slot.take(), shared.closed, shared.resetRequested)
            }
            if reset { sessionState.reset() }
            if let frame { return frame }
            if closed { return nil }
            wake.wait()
        }
    }
}
