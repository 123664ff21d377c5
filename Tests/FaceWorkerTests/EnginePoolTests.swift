import Dispatch
@testable import FaceAnalysis
import FaceDetection
import Foundation
import Inference
import Synchronization
import XCTest

/// The engines every frame finds free: a lone frame splits its model runs
/// over every core, any other runs on its thread's own engine, and a frame
/// that starts beside a split run takes its core back.
final class EnginePoolTests: XCTestCase {
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

    func testASplitRunHoldsItsCallerOnOneCPUUntilItIsNarrowed() throws {
        let allowed = ThreadAffinity.allowedCPUs()
        let engines = try EnginePool(models: FaceModels(directory: TestPaths.models), threads: 2)
        let during = engines.withEngine(home: 1, runsAlone: true) { _ in ThreadAffinity.allowedCPUs() }
        guard allowed.count >= 2 else {
            XCTAssertEqual(during, allowed, "with one CPU a split run's caller is left where it is")
            return
        }
        XCTAssertEqual(during.count, 1, "the split run's caller is held on one CPU")
        XCTAssertEqual(ThreadAffinity.allowedCPUs(), allowed, "and gets its CPUs back")
        let beside = engines.withEngine(home: 1, runsAlone: false) { _ in ThreadAffinity.allowedCPUs() }
        XCTAssertEqual(beside, allowed, "a frame on its caller alone is left where the kernel puts it")

        let pinned = DispatchSemaphore(value: 0)
        let narrowed = DispatchSemaphore(value: 0)
        let seen = Mutex<(held: Int, afterNarrowing: [Int32])>((0, []))
        let holder = Thread {
            engines.withEngine(home: 1, runsAlone: true) { _ in
                seen.withLock { $0.held = ThreadAffinity.allowedCPUs().count }
                pinned.signal()
                narrowed.wait()
                seen.withLock { $0.afterNarrowing = ThreadAffinity.allowedCPUs() }
            }
            pinned.signal()
        }
        holder.start()
        pinned.wait()
        _ = engines.withEngine(home: 0, runsAlone: false) { _ in narrowed.signal() }
        pinned.wait()
        XCTAssertEqual(seen.withLock { $0.held }, 1)
        XCTAssertEqual(seen.withLock { $0.afterNarrowing }, allowed, "a narrowed run's caller may run anywhere again at once")
    }
}
