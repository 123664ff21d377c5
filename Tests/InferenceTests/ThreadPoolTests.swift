import Foundation
import Inference
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
