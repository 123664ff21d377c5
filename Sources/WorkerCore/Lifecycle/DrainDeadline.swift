import Synchronization

/// The one moment by which every door must have drained in a graceful
/// shutdown. The doors drain one after another, in the order the worker
/// declares; a deadline of their own each would add their timeouts up, so the
/// first door to drain starts the clock and the others keep to it.
package final class DrainDeadline: Sendable {
    private let timeout: Duration
    private let instant = Mutex<ContinuousClock.Instant?>(nil)

    /// A deadline `timeout` after the first door starts draining.
    package init(timeout: Duration) {
        self.timeout = timeout
    }

    /// When draining must be over; the first call fixes it.
    package func due() -> ContinuousClock.Instant {
        instant.withLock { instant in
            if let instant { return instant }
            let due = ContinuousClock.now + timeout
            instant = due
            return due
        }
    }
}
