import Foundation
import Inference
import Synchronization
import XCTest

/// The pool XNNPACK splits runs over also splits our own loops.
final class ThreadPoolTests: XCTestCase {
    func testParallelizeCallsEveryIndexOnceAndReturnsWhenAllAreDone() throws {
        let pool = try ThreadPool(threads: 2)
        XCTAssertEqual(pool.threads, 2)
        var hits = [Int](repeating: 0, count: 1000)
        hits.withUnsafeMutableBufferPointer { hits in
            pool.parallelize(hits.count) { index in hits[index] += index }
        }
        XCTAssertEqual(hits, Array(0..<1000))
    }

    func testANarrowedPoolRunsEveryIndexOnTheCallerAndWidensAgain() throws {
        let pool = try ThreadPool(threads: 2)
        pool.setWidth(1)
        XCTAssertEqual(pool.width, 1)
        let caller = pthread_self()
        var onCaller = [Bool](repeating: false, count: 256)
        onCaller.withUnsafeMutableBufferPointer { onCaller in
            pool.parallelize(onCaller.count) { index in onCaller[index] = pthread_equal(pthread_self(), caller) != 0 }
        }
        XCTAssertEqual(onCaller, [Bool](repeating: true, count: 256), "a pool one wide keeps its workers out")
        pool.setWidth(0)
        XCTAssertEqual(pool.width, 1, "a width below one is one")
        pool.setWidth(5)
        XCTAssertEqual(pool.width, 2, "a width above the pool's threads is all of them")
    }

    func testAPoolNeedsTwoThreads() {
        XCTAssertThrowsError(try ThreadPool(threads: 1))
    }
}

/// A pinned pool keeps its threads on CPUs of their own, so that the kernel
/// cannot stack a split run's threads on one CPU.
final class PinnedThreadPoolTests: XCTestCase {
    /// A pool of two pinned threads, or nil, having checked that it is left
    /// unpinned, when the process may use fewer than two CPUs.
    private func pinnedPool(allowed: [Int32]) throws -> ThreadPool? {
        let pool = try ThreadPool(threads: 2, pinned: true)
        guard allowed.count >= 2 else {
            XCTAssertFalse(pool.isPinned, "with one CPU there is nothing to pin a worker to")
            return nil
        }
        return pool
    }

    func testACallerIsHeldOnItsCPUWithTheWorkerOnAnotherAndGetsItsCPUsBack() throws {
        let allowed = ThreadAffinity.allowedCPUs()
        guard let pool = try pinnedPool(allowed: allowed) else { return }
        XCTAssertTrue(pool.isPinned)
        XCTAssertEqual(pool.workerCPUs, [allowed[1]], "the worker starts on the mask's second CPU")

        // Once on each CPU, so that the worker must move once.
        for cpu in allowed.prefix(2) {
            XCTAssertTrue(ThreadAffinity.restrict(to: [cpu]))
            ThreadAffinity.restrict(to: allowed)
            let before = ThreadAffinity.currentCPU
            let pinned = try XCTUnwrap(pool.pinCaller())
            let held = ThreadAffinity.allowedCPUs()
            XCTAssertEqual(held.count, 1)
            XCTAssertEqual(held.first, before, "the caller is held where it was, not moved")
            XCTAssertFalse(pool.workerCPUs.contains(held[0]), "no worker is left on the caller's CPU")
            let caller = pthread_self()
            var seen = [(onCaller: Bool, cpu: Int32?)](repeating: (false, nil), count: 4096)
            // Enough rounds that the worker joins some; each index records its thread's CPU.
            for _ in 0..<50 {
                seen.withUnsafeMutableBufferPointer { seen in
                    pool.parallelize(seen.count) { index in
                        seen[index] = (pthread_equal(pthread_self(), caller) != 0, ThreadAffinity.currentCPU)
                    }
                }
                if seen.contains(where: { !$0.onCaller }) { break }
            }
            pool.unpin(pinned)
            XCTAssertEqual(ThreadAffinity.allowedCPUs(), allowed, "the caller gets its CPUs back")
            XCTAssertEqual(Set(seen.filter { !$0.onCaller }.map(\.cpu)), Set(pool.workerCPUs.map { Optional($0) }),
                           "the worker ran, and only on its CPU")
            XCTAssertEqual(Set(seen.filter(\.onCaller).map(\.cpu)), [held[0]])
        }
    }

    func testAnotherThreadCanGiveAPinnedCallerItsCPUsBack() throws {
        let allowed = ThreadAffinity.allowedCPUs()
        guard let pool = try pinnedPool(allowed: allowed) else { return }
        let pinned = try XCTUnwrap(pool.pinCaller())
        XCTAssertEqual(ThreadAffinity.allowedCPUs().count, 1)
        let done = DispatchSemaphore(value: 0)
        Thread {
            pool.unpin(pinned)
            done.signal()
        }.start()
        done.wait()
        XCTAssertEqual(ThreadAffinity.allowedCPUs(), allowed)
    }

    func testAPoolIsNotPinnedWhenItsCreatorMayUseFewerCPUsThanItHasThreads() throws {
        let allowed = ThreadAffinity.allowedCPUs()
        let first = try XCTUnwrap(allowed.first, "the affinity mask is readable")
        XCTAssertTrue(ThreadAffinity.restrict(to: [first]))
        defer { ThreadAffinity.restrict(to: allowed) }
        let pool = try ThreadPool(threads: 2, pinned: true)
        XCTAssertFalse(pool.isPinned)
        XCTAssertNil(pool.pinCaller(), "an unpinned pool leaves its callers where they are")
        XCTAssertEqual(ThreadAffinity.allowedCPUs(), [first])
        var hits = [Int](repeating: 0, count: 100)
        hits.withUnsafeMutableBufferPointer { hits in pool.parallelize(hits.count) { hits[$0] += 1 } }
        XCTAssertEqual(hits, [Int](repeating: 1, count: 100), "and still runs every index")
    }

    func testAPoolIsPinnedOnlyWhenAsked() throws {
        let pool = try ThreadPool(threads: 2)
        XCTAssertFalse(pool.isPinned)
        XCTAssertNil(pool.pinCaller())
    }
}

/// Pinning asks each worker to report in once. On a busy machine the caller
/// may be descheduled while its worker takes every index of that call, as when
/// two workers start at once on two CPUs: that worker still pins only itself.
final class PinningUnderLoadTests: XCTestCase {
    private final class Stop: Sendable {
        let requested = Atomic(false)
    }

    func testPoolsPinnedWhileEveryCPUIsBusyPinTheirWorkerOnce() throws {
        let allowed = ThreadAffinity.allowedCPUs()
        guard allowed.count >= 2 else { return }
        let stop = Stop()
        defer { stop.requested.store(true, ordering: .relaxed) }
        for _ in 0..<allowed.count * 2 {
            Thread { while !stop.requested.load(ordering: .relaxed) {} }.start()
        }
        for _ in 0..<300 {
            let pool = try ThreadPool(threads: 2, pinned: true)
            XCTAssertTrue(pool.isPinned)
            XCTAssertEqual(pool.workerCPUs, [allowed[1]])
        }
    }
}
