import Dispatch
import Synchronization
import XCTest

/// What a live-stream delegate heard, in order, for a test to wait on.
final class Outcomes<Result: Sendable>: Sendable {
    struct Outcome: Sendable {
        var result: Result?
        var timestamp: Int
        var error: (any Error)?
    }

    private let heard = Mutex<[Outcome]>([])
    private let arrived = DispatchSemaphore(value: 0)

    func add(_ result: Result?, _ timestamp: Int, _ error: (any Error)?) {
        heard.withLock { $0.append(Outcome(result: result, timestamp: timestamp, error: error)) }
        arrived.signal()
    }

    /// The next outcome; a test that never gets one fails instead of hanging.
    func next(file: StaticString = #filePath, line: UInt = #line) throws -> Outcome {
        guard arrived.wait(timeout: .now() + 120) == .success else {
            XCTFail("no live-stream outcome arrived", file: file, line: line)
            throw CancellationError()
        }
        return heard.withLock { $0.removeFirst() }
    }
}
