import Dispatch
import FaceDetection
import FaceWorkerProtocol
import Foundation
import NIOEmbedded
@testable import SocketTransport
@testable import WorkerCore
import WorkerCoreTesting
import XCTest

/// The scheduler's sessions: the one owner of a session's timestamp rule and
/// queue, refusals in their turn, and which frames may split their model runs
/// over every core (a frame that starts while no other frame runs or waits).
final class SchedulingTests: XCTestCase {
    private static let pipeline = try! FakeAnalyzer().pipeline(for: FaceOptions())

    private static func pipeline(_ mode: FaceOptions.RunningMode) throws -> any SessionPipeline {
        var options = FaceOptions()
        options.runningMode = mode
        return try FakeAnalyzer().pipeline(for: options)
    }

    /// Submits a one-pixel frame (or, with `refusal`, admission's refusal of one).
    @discardableResult
    private func submit(_ scheduler: FrameScheduler, _ callID: UInt64, timestampMs: Int64? = nil, to session: UInt64,
                        refusal: CallError? = nil) -> FrameScheduler.SubmitOutcome {
        let timestamp = timestampMs ?? Int64(callID)
        let frame = AdmittedFrame(pixels: .raw(.inline(Data(count: 3)), format: .rgb, width: 1, height: 1, rowStride: 3), orientation: .topLeft,
                                  timestampMs: timestamp)
        let admission: Result<AdmittedFrame, CallError> = refusal.map { .failure($0) } ?? .success(frame)
        return scheduler.submit(request: RequestToken(callID), admission, timestampMs: timestamp, to: session, received: .now, receivedUnixMicros: 0, maxQueued: 4)
    }

    func testTheSessionOwnsTheTimestampRuleAndAResetForgetsIt() throws {
        let scheduler = FrameScheduler()
        let outbox = SessionBroadcast(sessionID: 1, name: nil, options: FaceOptions(), producer: ConnectionOutbox(EmbeddedChannel()))
        XCTAssertTrue(scheduler.open(id: 1, pipeline: try Self.pipeline(.video), output: outbox, limit: 8))
        guard case .queued = submit(scheduler, 1, timestampMs: 100, to: 1) else { return XCTFail("the first frame is queued") }
        guard case .refused(let stale, inTurn: true) = submit(scheduler, 2, timestampMs: 100, to: 1) else {
            return XCTFail("a repeated timestamp is refused in its turn, behind the waiting frame")
        }
        XCTAssertEqual(stale.code, .invalidArgument)
        XCTAssertTrue(stale.message.contains("must increase"), stale.message)
        guard case .queued = submit(scheduler, 3, timestampMs: 101, to: 1) else { return XCTFail("a later timestamp is still accepted") }

        let dropped = try XCTUnwrap(scheduler.reset(1))
        let requests = dropped.map { work in
            switch work {
            case .frame(let frame): frame.request
            case .refusal(let request, _, _): request
            }
        }
        XCTAssertEqual(requests, [1, 2, 3].map(RequestToken.init), "the waiting work, refusal included, in order")
        guard case .queued = submit(scheduler, 4, timestampMs: 5, to: 1) else { return XCTFail("after a reset any timestamp starts anew") }
    }

    func testARefusalWaitsItsTurnBehindTheFramesBeforeIt() throws {
        let scheduler = FrameScheduler()
        let outbox = SessionBroadcast(sessionID: 1, name: nil, options: FaceOptions(), producer: ConnectionOutbox(EmbeddedChannel()))
        let wakeup = DispatchSemaphore(value: 0)
        XCTAssertTrue(scheduler.open(id: 1, pipeline: try Self.pipeline(.image), output: outbox, limit: 8))
        guard case .refused(_, inTurn: false) = submit(scheduler, 1, to: 1, refusal: CallError(.invalidArgument, "bad")) else {
            return XCTFail("with nothing before it, a refusal is answered at once")
        }
        submit(scheduler, 2, to: 1)
        guard case .refused(_, inTurn: true) = submit(scheduler, 3, to: 1, refusal: CallError(.invalidArgument, "bad")) else {
            return XCTFail("behind a waiting frame, a refusal waits")
        }
        let first = try XCTUnwrap(scheduler.next(wakeup: wakeup))
        guard case .frame = first.work else { return XCTFail("the frame comes first") }
        _ = scheduler.complete(first)
        let second = try XCTUnwrap(scheduler.next(wakeup: wakeup))
        guard case .refusal(let request, let timestampMs, let error) = second.work else { return XCTFail("then the refusal") }
        XCTAssertEqual(request, RequestToken(3))
        XCTAssertEqual(timestampMs, 3, "the refused frame's timestamp stays with its error")
        XCTAssertEqual(error.message, "bad")
        _ = scheduler.complete(second)
    }

    func testAFrameRunsAloneWhenNoOtherFrameRunsOrWaitsWhateverSessionsAreOpen() throws {
        let scheduler = FrameScheduler()
        let outbox = SessionBroadcast(sessionID: 1, name: nil, options: FaceOptions(), producer: ConnectionOutbox(EmbeddedChannel()))
        let wakeup = DispatchSemaphore(value: 0)
        XCTAssertTrue(scheduler.open(id: 1, pipeline: Self.pipeline, output: outbox, limit: 8))
        submit(scheduler, 1, to: 1)
        let lone = try XCTUnwrap(scheduler.next(wakeup: wakeup))
        XCTAssertTrue(lone.runsAlone, "the only session's frame, nothing else running")
        _ = scheduler.complete(lone)

        XCTAssertTrue(scheduler.open(id: 2, pipeline: Self.pipeline, output: outbox, limit: 8))
        submit(scheduler, 2, to: 1)
        let beside = try XCTUnwrap(scheduler.next(wakeup: wakeup))
        XCTAssertTrue(beside.runsAlone, "another session is open but idle: the frame still has every core")
        _ = scheduler.complete(beside)

        submit(scheduler, 3, to: 1)
        submit(scheduler, 4, to: 2)
        let first = try XCTUnwrap(scheduler.next(wakeup: wakeup))
        let second = try XCTUnwrap(scheduler.next(wakeup: wakeup))
        XCTAssertFalse(first.runsAlone, "another frame waits")
        XCTAssertFalse(second.runsAlone, "another frame runs")
        _ = scheduler.complete(first)
        _ = scheduler.complete(second)

        submit(scheduler, 5, to: 2)
        let again = try XCTUnwrap(scheduler.next(wakeup: wakeup))
        XCTAssertTrue(again.runsAlone, "once the other frame is answered, a lone frame has every core again")
        _ = scheduler.complete(again)
    }
}
