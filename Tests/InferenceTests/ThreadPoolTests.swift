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

    func testAPoolNeedsTwoThreads() {
        XCTAssertThrowsError(try ThreadPool(threads: 1))
    }
}
