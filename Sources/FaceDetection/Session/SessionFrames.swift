/// What a session carries from one frame to the next, in one place for every
/// owner of a session (the worker's scheduled sessions, the library's
/// `FaceSession`): its running mode's timestamp rule (`FrameTimestamps`) and
/// its tracking state (`FaceTracker`), and the rule that binds them: a reset
/// forgets both, even while the tracker is out with a frame.
///
/// The tracker is lent to one frame at a time, so that an owner whose frames
/// run on other threads (the worker) moves it there and back, and one that
/// runs them on its own thread (`FaceSession`) uses ``withTracker(_:)``.
package struct SessionFrames: Sendable {
    private var timestamps: FrameTimestamps
    /// Nil while it is lent to a frame being processed.
    private var tracker: FaceTracker? = FaceTracker()
    /// A reset came while the tracker was lent: it is reset when it comes back.
    private var resetWhenReturned = false

    /// No frame accepted yet, no face followed.
    package init(mode: FaceOptions.RunningMode) {
        timestamps = FrameTimestamps(mode: mode)
    }

    /// Checks the next frame's timestamp without accepting it, for an owner
    /// that may still refuse the frame for another reason.
    package func check(_ timestampMs: Int64?) throws(FaceError) {
        try timestamps.check(timestampMs)
    }

    /// Accepts a timestamp that ``check(_:)`` passed.
    package mutating func record(_ timestampMs: Int64?) {
        timestamps.record(timestampMs)
    }

    /// Accepts the next frame's timestamp, or says why not; a refused
    /// timestamp leaves the session as it was, so it stays usable.
    package mutating func accept(_ timestampMs: Int64?) throws(FaceError) {
        try timestamps.accept(timestampMs)
    }

    /// Whether the tracker is out with a frame being processed.
    package var isTrackerLent: Bool { tracker == nil }

    /// The tracker, for the frame about to be processed; nil while another
    /// frame has it, since a session's frames are processed one at a time.
    package mutating func lendTracker() -> FaceTracker? {
        defer { tracker = nil }
        return tracker
    }

    /// Takes back the tracker a processed frame updated; if the session was
    /// reset meanwhile, the faces it followed are forgotten.
    package mutating func returnTracker(_ returned: FaceTracker) {
        var returned = returned
        if resetWhenReturned {
            returned.reset()
            resetWhenReturned = false
        }
        tracker = returned
    }

    /// Processes a frame with the tracker on the caller's thread.
    ///
    /// - Precondition: the tracker is not lent.
    package mutating func withTracker<Value, Failure: Error>(_ body: (inout FaceTracker) throws(Failure) -> Value) throws(Failure) -> Value {
        guard var lent = lendTracker() else { preconditionFailure("a frame of the session is already being processed") }
        defer { returnTracker(lent) }
        return try body(&lent)
    }

    /// Forgets the last timestamp, so the next frame may start anywhere, and
    /// the faces followed (their IDs stay retired); a lent tracker is reset
    /// when it comes back.
    package mutating func reset() {
        timestamps.reset()
        if tracker == nil {
            resetWhenReturned = true
        } else {
            tracker?.reset()
        }
    }
}
