import Dispatch
import Inference
import XCTest

/// The thread pool hands each caller's task to its workers through memory
/// the workers read after the caller wrote it, and the caller reuses that
/// memory for its next task once the workers are done: the ThreadSanitizer
/// run, with the pool itself built with the tool, holds the hand-off to
/// ordering both ways.
final class ThreadPoolConcurrencyTests: XCTestCase {
    func testCallersOnManyThreadsEachSeeOnlyTheirOwnTasksResults() throws {
        let pool = try ThreadPool(threads: 2)
        let callers = 4, rounds = 50, count = 64
        // Each caller's tasks write only the caller's own slices, and the checks run after every caller returned.
        nonisolated(unsafe) let results = UnsafeMutableBufferPointer<Int>.allocate(capacity: callers * rounds * count)
        defer { results.deallocate() }
        results.initialize(repeating: 0)
        DispatchQueue.concurrentPerform(iterations: callers) { caller in
            for round in 0..<rounds {
                // A new task each round, in the same stack slot as the last one.
                let base = (caller * rounds + round) * count
                let mark = caller * 1000 + round
                pool.parallelize(count) { index in results[base + index] = mark }
            }
        }
        for caller in 0..<callers {
            for round in 0..<rounds {
                let base = (caller * rounds + round) * count
                XCTAssertEqual(Set(results[base..<base + count]), [caller * 1000 + round], "caller \(caller), round \(round)")
            }
        }
    }
}
