@testable import FaceDetection
import XCTest

/// A session's timestamp rule and tracker, as every session owner keeps them:
/// one frame has the tracker at a time, and a reset forgets both, even while a
/// frame has it.
final class SessionFramesTests: XCTestCase {
    /// A tracker that follows one face, under its first ID.
    private func followingOneFace(_ tracker: inout FaceTracker) -> [Int] {
        let box = Detection(score: 0.9, xMin: 0.2, yMin: 0.2, xMax: 0.6, yMax: 0.6, keypoints: [])
        return tracker.update([FaceTracker.Observation(track: nil, box: box, score: 0.9)], matchThreshold: 0.5, maxMissed: 2)
    }

    func testVideoTimestampsMustIncreaseAndARefusalChangesNothing() throws {
        var frames = SessionFrames(mode: .video)
        try frames.accept(10)
        XCTAssertThrowsError(try frames.accept(10))
        XCTAssertThrowsError(try frames.accept(nil), "video mode needs a timestamp")
        try frames.accept(11)
        XCTAssertThrowsError(try frames.check(11))
        try frames.check(12)
        try frames.check(12)
        frames.record(12)
        XCTAssertThrowsError(try frames.accept(12), "a checked timestamp counts once it is recorded")
    }

    func testImageTimestampsAreOnlyEchoed() throws {
        var frames = SessionFrames(mode: .image)
        try frames.accept(10)
        try frames.accept(10)
        try frames.accept(nil)
    }

    func testTheTrackerIsLentToOneFrameAtATime() throws {
        var frames = SessionFrames(mode: .liveStream)
        var tracker = try XCTUnwrap(frames.lendTracker())
        XCTAssertTrue(frames.isTrackerLent)
        XCTAssertNil(frames.lendTracker(), "a second frame waits for the first")
        XCTAssertEqual(followingOneFace(&tracker), [1])
        frames.returnTracker(tracker)
        XCTAssertFalse(frames.isTrackerLent)
        let back = try XCTUnwrap(frames.lendTracker())
        XCTAssertEqual(back.tracks.map(\.id), [1], "what the frame learned is kept")
    }

    func testAResetWhileAFrameHasTheTrackerForgetsItsFacesWhenItComesBack() throws {
        var frames = SessionFrames(mode: .video)
        try frames.accept(100)
        var tracker = try XCTUnwrap(frames.lendTracker())
        _ = followingOneFace(&tracker)
        frames.reset()
        try frames.accept(1)
        frames.returnTracker(tracker)
        var back = try XCTUnwrap(frames.lendTracker())
        XCTAssertEqual(back.tracks.count, 0)
        XCTAssertEqual(followingOneFace(&back), [2], "a face after a reset gets a new ID")
        frames.returnTracker(back)
        // The reset was for that frame only: the next one keeps what it learned.
        XCTAssertEqual(try XCTUnwrap(frames.lendTracker()).tracks.map(\.id), [2])
    }

    func testAResetForgetsTheLastTimestampAndTheFaces() throws {
        var frames = SessionFrames(mode: .video)
        try frames.accept(100)
        _ = frames.withTracker { followingOneFace(&$0) }
        frames.reset()
        try frames.accept(1)
        XCTAssertEqual(frames.withTracker { $0.tracks.count }, 0)
        XCTAssertFalse(frames.isTrackerLent)
    }
}
