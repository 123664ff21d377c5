import Logging
import ServiceLifecycle
import WorkerCore

/// The buffer handoff socket as a service: its thread serves handoffs until a
/// graceful shutdown, then the socket is closed.
package struct HandoffService: Service {
    private let listener: HandoffListener
    private let shared: SharedMemory
    private let policy: PeerPolicy
    private let logger: Logger
    private let started: PartsStarted

    /// Serves handoffs on `listener` into `shared`, for the peers `policy`
    /// admits; reports to `started` once its thread runs.
    package init(listener: HandoffListener, shared: SharedMemory, policy: PeerPolicy, logger: Logger, started: PartsStarted) {
        self.listener = listener
        self.shared = shared
        self.policy = policy
        self.logger = logger
        self.started = started
    }

    /// Serves until a graceful shutdown or cancellation, then waits for the
    /// handoff in progress and closes the socket.
    package func run() async throws {
        listener.serve(shared, policy: policy, logger: logger)
        started.report()
        try? await gracefulShutdown()
        listener.close()
    }
}
