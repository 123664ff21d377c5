import Dispatch
import Glibc
import Synchronization

/// Waits for SIGTERM or SIGINT.
///
/// Both signals' default action (ending the process at once) is replaced by
/// dispatch sources, so the worker can shut down cleanly instead.
enum TerminationSignals {
    /// The signals that ask the worker to stop.
    static let signals: [Int32] = [SIGTERM, SIGINT]

    /// Returns the first of `signals` the process receives.
    static func next() async -> Int32 {
        let latch = Latch()
        let sources = signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { latch.fire(number) }
            return source
        }
        let received = await withCheckedContinuation { continuation in
            latch.arm(continuation)
            for source in sources { source.resume() }
        }
        for source in sources { source.cancel() }
        return received
    }

    /// Resumes the waiting task with the first signal only.
    private final class Latch: Sendable {
        private let continuation = Mutex<CheckedContinuation<Int32, Never>?>(nil)

        func arm(_ waiting: CheckedContinuation<Int32, Never>) {
            continuation.withLock { $0 = waiting }
        }

        func fire(_ number: Int32) {
            continuation.withLock { waiting in
                waiting?.resume(returning: number)
                waiting = nil
            }
        }
    }
}
