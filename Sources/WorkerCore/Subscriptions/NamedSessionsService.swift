import ServiceLifecycle

/// The named sessions as a service: nothing runs, but a graceful shutdown
/// ends every subscription with WORKER_STOPPING, before the doors drain, so
/// that a subscriber's stream ends with the reason rather than being cut.
package struct NamedSessionsService: Service {
    private let sessions: NamedSessions
    private let started: PartsStarted

    /// Stops `sessions` on a graceful shutdown; reports to `started` at once.
    package init(_ sessions: NamedSessions, started: PartsStarted) {
        self.sessions = sessions
        self.started = started
    }

    /// Waits for a graceful shutdown or cancellation, then ends the subscriptions.
    package func run() async throws {
        started.report()
        try? await gracefulShutdown()
        sessions.stop()
    }
}
