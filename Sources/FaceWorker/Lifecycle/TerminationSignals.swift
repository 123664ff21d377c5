import Dispatch
import Glibc
import Synchronization

/// Catches SIGTERM and SIGINT from the moment it is made.
///
/// Both signals' default action (ending the process at once) is replaced by
/// dispatch sources, so the worker can shut down cleanly instead. Made before
/// the socket appears, it also catches a signal sent the instant a client or
/// supervisor sees the socket; later signals are ignored.
final class TerminationSignals: Sendable {
    /// The signals that ask the worker to stop.
    static let signals: [Int32] = [SIGTERM, SIGINT]

    private struct State {
        /// Kept alive for as long as the signals are caught.
        var sources: [any DispatchSourceSignal] = []
        var received: Int32?
        var waiting: CheckedContinuation<Int32, Never>?
    }

    private let state: Mutex<State>

    /// Starts catching `signals`.
    init() {
        state = Mutex(State(sources: Self.signals.map { number in
            signal(number, SIG_IGN)
            return DispatchSource.makeSignalSource(signal: number, queue: .global())
        }))
        state.withLock { state in
            for (number, source) in zip(Self.signals, state.sources) {
                source.setEventHandler { [weak self] in self?.caught(number) }
                source.resume()
            }
        }
    }

    /// The first of `signals` the process received, waiting for one if needed.
    func next() async -> Int32 {
        await withCheckedContinuation { continuation in
            state.withLock { state in
                if let received = state.received {
                    continuation.resume(returning: received)
                } else {
                    state.waiting = continuation
                }
            }
        }
    }

    private func caught(_ number: Int32) {
        state.withLock { state in
            guard state.received == nil else { return }
            state.received = number
            state.waiting?.resume(returning: number)
            state.waiting = nil
        }
    }
}
