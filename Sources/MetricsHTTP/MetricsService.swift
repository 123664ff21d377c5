import Logging
import ServiceLifecycle
import WorkerCore

/// The metrics endpoint as a service: it listens until a graceful shutdown,
/// then stops.
package struct MetricsService: Service {
    private let endpoint: MetricsEndpoint
    private let socketMode: UInt32
    private let logger: Logger
    private let started: PartsStarted
    private let exposition: @Sendable () -> [UInt8]

    /// An endpoint at `endpoint` (a Unix socket gets `socketMode`) serving
    /// what `exposition` renders; it reports to `started` once it accepts.
    package init(_ endpoint: MetricsEndpoint, socketMode: UInt32, logger: Logger, started: PartsStarted,
         exposition: @escaping @Sendable () -> [UInt8]) {
        self.endpoint = endpoint
        self.socketMode = socketMode
        self.logger = logger
        self.started = started
        self.exposition = exposition
    }

    /// Serves until a graceful shutdown or cancellation.
    ///
    /// - Throws: `WorkerStartupError` when the address cannot be listened on.
    package func run() async throws {
        let server = try await MetricsServer.start(endpoint, socketMode: socketMode, logger: logger, exposition: exposition)
        started.report()
        try? await gracefulShutdown()
        await server.stop()
    }
}
