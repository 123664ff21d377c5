import Dispatch
import FaceDetection
@testable import FaceWorker
import FaceWorkerProtocol
import NIOEmbedded
import XCTest

/// Which frames may split their model runs over every core: only a frame of
/// the one open session, while nothing else runs or waits.
final class SchedulingTests: XCTestCase {
    private static let pipeline: FacePipeline = {
        let models = try! FaceModels(directory: TestPaths.models)
        return try! FacePipeline(models: models, options: FaceOptions())
    }()

    private func frame(_ callID: UInt64) -> PendingFrame {
        PendingFrame(callID: callID, frame: Faceworker_V1_Frame(), received: .now, receivedUnixMicros: 0, refusal: nil)
    }

    func testAFrameRunsAloneOnlyWhenItsSessionIsTheOnlyOneAndNothingElseRuns() throws {
        let scheduler = FrameScheduler()
        let outbox = Outbox(channel: EmbeddedChannel())
        let wakeup = DispatchSemaphore(value: 0)
        XCTAssertTrue(scheduler.open(id: 1, pipeline: Self.pipeline, outbox: outbox, limit: 8))
        _ = scheduler.submit(frame(1), to: 1, maxQueued: 4)
        let lone = try XCTUnwrap(scheduler.next(wakeup: wakeup))
        XCTAssertTrue(lone.runsAlone, "the only session's frame, nothing else running")
        _ = scheduler.complete(lone)

        XCTAssertTrue(scheduler.open(id: 2, pipeline: Self.pipeline, outbox: outbox, limit: 8))
        _ = scheduler.submit(frame(2), to: 1, maxQueued: 4)
        let beside = try XCTUnwrap(scheduler.next(wakeup: wakeup))
        XCTAssertFalse(beside.runsAlone, "another session is open, though idle")
        _ = scheduler.complete(beside)

        _ = scheduler.submit(frame(3), to: 1, maxQueued: 4)
        _ = scheduler.submit(frame(4), to: 2, maxQueued: 4)
        let first = try XCTUnwrap(scheduler.next(wakeup: wakeup))
        let second = try XCTUnwrap(scheduler.next(wakeup: wakeup))
        XCTAssertFalse(first.runsAlone, "another frame waits")
        XCTAssertFalse(second.runsAlone, "another frame runs")
        _ = scheduler.complete(first)
        _ = scheduler.complete(second)

        guard case .closed = scheduler.close(2, callID: 9) else { return XCTFail("session 2 did not close") }
        _ = scheduler.submit(frame(5), to: 1, maxQueued: 4)
        let again = try XCTUnwrap(scheduler.next(wakeup: wakeup))
        XCTAssertTrue(again.runsAlone, "the other session has gone")
        _ = scheduler.complete(again)
    }

    func testTheSplitEngineServesOneFrameAtATimeAndIsNeverWaitedFor() throws {
        let split = try SplitEngine(models: FaceModels(directory: TestPaths.models), threads: 2)
        let nested = split.withEngineIfAvailable { _ in split.withEngineIfAvailable { _ in true } }
        XCTAssertEqual(nested, .some(nil), "a second borrower is turned away at once, not made to wait")
        // Parking while it is lent out is deferred to the borrower; parking while it is free happens at once.
        XCTAssertEqual(split.withEngineIfAvailable { _ in split.park(); return 1 }, 1)
        split.park()
        XCTAssertEqual(split.withEngineIfAvailable { _ in 2 }, 2)
    }
}
