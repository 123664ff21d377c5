import Dispatch
import FaceDetection
@testable import WorkerCore
@testable import SocketTransport
import FaceWorkerProtocol
import Foundation
import NIOEmbedded
import Synchronization
import XCTest

/// The scheduler's sessions: the one owner of a session's timestamp rule and
/// queue, refusals in their turn, which frames may split their model runs
/// over every core (a frame that starts while no other frame runs or waits),
/// and the engines every frame finds free.
final class SchedulingTests: XCTestCase {
    private static let pipeline: FacePipeline = {
        let models = try! FaceModels(directory: TestPaths.models)
        return try! FacePipeline(models: models, options: FaceOptions())
    }()

    private static func pipeline(_ mode: FaceOptions.RunningMode) throws -> FacePipeline {
        var options = FaceOptions()
        options.runningMode = mode
        return try FacePipeline(models: FaceModels(directory: TestPaths.models), options: options)
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

    func testALoneFrameSplitsOverEveryCoreAndAnyOtherRunsOnItsThreadsOwnEngine() throws {
        let engines = try EnginePool(models: FaceModels(directory: TestPaths.models), threads: 2)
        let lone = engines.withEngine(home: 1, runsAlone: true) { (ObjectIdentifier($0), engines.width) }
        XCTAssertEqual(lone.1, 2, "a lone frame's runs are split over both threads")
        let own = engines.withEngine(home: 1, runsAlone: false) { ObjectIdentifier($0) }
        XCTAssertNotEqual(own, lone.0, "a frame beside others runs on its thread's own engine")
        let first = engines.withEngine(home: 0, runsAlone: false) { (ObjectIdentifier($0), engines.width) }
        XCTAssertEqual(first.0, lone.0, "the first thread's own engine is the one that splits")
        XCTAssertEqual(first.1, 1, "but not for a frame beside others")
        XCTAssertEqual(engines.withEngine(home: 0, runsAlone: true) { _ in engines.width }, 2, "the next lone frame is split again")
    }

    func testAFrameBesideASplitRunTakesAFreeEngineAndNarrowsTheRun() throws {
        let engines = try EnginePool(models: FaceModels(directory: TestPaths.models), threads: 2)
        let lent = DispatchSemaphore(value: 0)
        let besideStarted = DispatchSemaphore(value: 0)
        let split = Mutex<(engine: ObjectIdentifier?, widthAfterwards: Int)>((nil, 0))
        let holder = Thread {
            engines.withEngine(home: 1, runsAlone: true) { engine in
                split.withLock { $0.engine = ObjectIdentifier(engine) }
                lent.signal()
                besideStarted.wait()
                split.withLock { $0.widthAfterwards = engines.width }
            }
            lent.signal()
        }
        holder.start()
        lent.wait()
        XCTAssertEqual(engines.width, 2, "the split run began over both threads")
        let beside = engines.withEngine(home: 0, runsAlone: false) { engine -> ObjectIdentifier in
            besideStarted.signal()
            return ObjectIdentifier(engine)
        }
        lent.wait()
        XCTAssertNotEqual(beside, split.withLock { $0.engine }, "its own engine was lent out, so it took the free one rather than wait")
        XCTAssertEqual(split.withLock { $0.widthAfterwards }, 1, "a frame that starts beside a split run takes its core back")
        XCTAssertEqual(engines.withEngine(home: 1, runsAlone: true) { _ in engines.width }, 2, "the next lone run is split again")
    }
}
