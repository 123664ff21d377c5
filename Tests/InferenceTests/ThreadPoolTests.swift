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
        pool.park()
        var after = [0, 0]
        after.withUnsafeMutableBufferPointer { after in pool.parallelize(2) { after[$0] = 1 } }
        XCTAssertEqual(after, [1, 1], "a parked pool wakes for the next call")
    }

    func testAPoolNeedsTwoThreads() {
        XCTAssertThrowsError(try ThreadPool(threads: 1))
    }
}
