import Dispatch
import FaceDetection
import NIOCore
import Synchronization

/// Hands the frames of every session, over all connections, to the inference
/// threads fairly: sessions with waiting frames take turns, one frame per
/// turn, in a round-robin queue, so a busy session cannot starve a quiet one.
///
/// A session is never in the ready queue twice and is not queued while one of
/// its frames is processed, so each session's frames are processed one at a
/// time, in order, and its state moves with its frame from thread to thread.
package final class FrameScheduler: Sendable {
    /// Creates it empty.
    package init() {}


    /// What happened to a submitted frame.
    enum SubmitOutcome: Sendable {
        /// It waits for a thread.
        case queued
        /// It waits for a thread and took the place of this live-stream frame,
        /// which will never be processed.
        case replaced(PendingFrame)
        /// The session already has as many frames waiting as allowed.
        case queueFull
        /// The frame cannot be processed; its error is answered at once, or,
        /// `inTurn`, once the session's earlier frames are answered.
        case refused(CallError, inTurn: Bool)
        /// The session does not exist or is closing.
        case unknownSession
    }

    /// What happened to a session that was asked to close.
    enum CloseOutcome: Sendable {
        /// It is gone; the work that was waiting was never done.
        case closed(dropped: [SessionWork])
        /// A frame of it is being processed; the session goes, and the close
        /// is answered, once that frame is answered.
        case closing(dropped: [SessionWork])
        /// The session does not exist or is already closing.
        case unknownSession
    }

    private struct State {
        var sessions: [UInt64: ScheduledSession] = [:]
        /// Sessions with a waiting frame and no running one, in turn order.
        /// An ID may linger after its session closed; it is skipped.
        var ready = CircularBuffer<UInt64>()
        var running = 0
        var stopped = false
        /// The threads blocked in `next(wakeup:)`, the most recently idle
        /// last. A newly ready session wakes that one: its caches still hold
        /// the models it just ran, where a thread idle for longer (or the other
        /// thread of a pair taking turns) would fetch them again, which cost a
        /// lone landmark session 0.3 to 0.5 ms per frame.
        var idle: [DispatchSemaphore] = []
    }

    private let state = Mutex(State())

    /// Adds a session unless the worker already has `limit` sessions; the
    /// frames of a session not `counted` are left out of the worker's counters.
    func open(id: UInt64, pipeline: any SessionPipeline, output: any SessionOutput, limit: Int, counted: Bool = true) -> Bool {
        state.withLock { state in
            guard state.sessions.count < limit else { return false }
            state.sessions[id] = ScheduledSession(id: id, pipeline: pipeline, output: output, counted: counted)
            return true
        }
    }

    /// Hands a session a frame that passed admission, or the reason it did
    /// not; the session checks its timestamp and queues it or its refusal.
    func submit(request: RequestToken, _ admission: Result<AdmittedFrame, CallError>, timestampMs: Int64, to sessionID: UInt64,
                received: ContinuousClock.Instant, receivedUnixMicros: Int64, maxQueued: Int) -> SubmitOutcome {
        let (outcome, wake) = state.withLock { state -> (SubmitOutcome, DispatchSemaphore?) in
            guard let session = state.sessions[sessionID], session.closeRequest == nil else { return (.unknownSession, nil) }
            let outcome = session.accept(request: request, admission, timestampMs: timestampMs, received: received,
                                         receivedUnixMicros: receivedUnixMicros, maxQueued: maxQueued)
            return (outcome, Self.markReady(session, in: &state) ? state.idle.popLast() : nil)
        }
        wake?.signal()
        return outcome
    }

    /// Closes a session: its waiting frames are returned, never processed.
    func close(_ sessionID: UInt64, request: RequestToken) -> CloseOutcome {
        state.withLock { state in
            guard let session = state.sessions[sessionID], session.closeRequest == nil else { return .unknownSession }
            let dropped = session.takeAllWaiting()
            if session.isRunning {
                session.closeRequest = request
                return .closing(dropped: dropped)
            }
            state.sessions[sessionID] = nil
            return .closed(dropped: dropped)
        }
    }

    /// Forgets a session's tracking state and last timestamp and returns its
    /// waiting work, never done; nil when the session does not exist.
    func reset(_ sessionID: UInt64) -> [SessionWork]? {
        state.withLock { state in
            guard let session = state.sessions[sessionID], session.closeRequest == nil else { return nil }
            return session.reset()
        }
    }

    /// Removes sessions at once, without answering anything (their connection
    /// is gone); a frame being processed is discarded when it finishes.
    func remove(_ sessionIDs: some Sequence<UInt64>) {
        state.withLock { state in
            for id in sessionIDs { state.sessions[id] = nil }
        }
    }

    /// Sessions open now.
    package var sessionCount: Int {
        state.withLock { $0.sessions.count }
    }

    /// Frames waiting for a thread now, over all sessions.
    package var queuedFrames: Int {
        state.withLock { $0.sessions.values.reduce(0) { $0 + $1.waitingCount } }
    }

    /// Blocks until work is due, and hands it out with its session's tracker;
    /// nil once the scheduler is stopped. Each inference thread passes its
    /// own `wakeup`, on which it waits while there is nothing to do.
    func next(wakeup: DispatchSemaphore) -> FrameJob? {
        while true {
            let (job, stopped) = state.withLock { state -> (FrameJob?, Bool) in
                if state.stopped { return (nil, true) }
                while let id = state.ready.popFirst() {
                    guard let session = state.sessions[id] else { continue }
                    session.isReady = false
                    guard let (work, tracker) = session.startNext() else { continue }
                    state.running += 1
                    // Other sessions may be open: a frame of theirs that arrives while this
                    // one's runs are split takes its core back at the next operator
                    // (EnginePool), so an idle neighbour no longer costs a lone frame
                    // the second core.
                    let alone = state.running == 1 && state.ready.isEmpty
                    return (FrameJob(sessionID: id, pipeline: session.pipeline, output: session.output, work: work,
                                     tracker: tracker, runsAlone: alone, counted: session.counted), false)
                }
                state.idle.append(wakeup)
                return (nil, false)
            }
            if stopped { return nil }
            if let job { return job }
            wakeup.wait()
        }
    }

    /// Gives a session its tracker back after `job` was answered and queues it
    /// again if it has more frames.
    ///
    /// - Returns: the close to answer now, when the session was asked to
    ///   close while the frame ran.
    func complete(_ job: FrameJob) -> RequestToken? {
        let (closeRequest, wake) = state.withLock { state -> (RequestToken?, DispatchSemaphore?) in
            state.running -= 1
            guard let session = state.sessions[job.sessionID] else { return (nil, nil) }
            if let request = session.closeRequest {
                state.sessions[job.sessionID] = nil
                return (request, nil)
            }
            session.finish(returning: job.tracker)
            return (nil, Self.markReady(session, in: &state) ? state.idle.popLast() : nil)
        }
        wake?.signal()
        return closeRequest
    }

    /// Wakes every thread blocked in `next(wakeup:)` to return nil; the others
    /// return nil from their next call.
    package func stop() {
        let idle = state.withLock { state -> [DispatchSemaphore] in
            state.stopped = true
            defer { state.idle = [] }
            return state.idle
        }
        for thread in idle { thread.signal() }
    }

    /// Puts a session at the back of the ready queue if it has a frame to run
    /// and is neither running nor queued; true when it was queued.
    private static func markReady(_ session: ScheduledSession, in state: inout State) -> Bool {
        guard !session.isReady, !session.isRunning, session.hasWaitingFrames else { return false }
        session.isReady = true
        state.ready.append(session.id)
        return true
    }
}
