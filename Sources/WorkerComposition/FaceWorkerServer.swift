import Foundation
import Logging
import ServiceLifecycle
import WorkerCore

/// The worker as a service: it serves on the socket until a graceful
/// shutdown, then drains and stops.
///
/// It installs no signal handlers: whoever runs it decides what stops it,
/// such as a `ServiceGroup` turning SIGTERM and SIGINT into a graceful
/// shutdown.
///
/// ```swift
/// let server = FaceWorkerServer(configuration: configuration, logger: logger)
/// let group = ServiceGroup(services: [server], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
/// try await group.run()   // returns once the worker has drained and stopped
/// ```
package struct FaceWorkerServer: Service {
    /// The worker's configuration.
    package let configuration: WorkerConfiguration
    private let logger: Logger

    /// A worker that will serve with `configuration` and log to `logger`;
    /// nothing starts before `run()`.
    package init(configuration: WorkerConfiguration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
    }

    /// Loads the models, publishes the socket and serves until a graceful
    /// shutdown is triggered. Then it removes the socket, answers the frames
    /// already sent while refusing new calls with UNAVAILABLE, closes every
    /// connection once its answers are written (a client that does not read
    /// them is cut off after the configuration's `drainTimeout`), stops the
    /// threads and returns. The parts start together and stop one at a time,
    /// in the order `WorkerParts` declares; a part that cannot start stops
    /// the ones that did.
    ///
    /// Cancelling the task ends the serving too, and cuts the drain short:
    /// every connection is closed at once.
    ///
    /// - Throws: `WorkerStartupError` when the worker cannot start: a live
    ///   worker already answers on the socket, a model cannot be loaded, the
    ///   socket cannot be created, or a configuration value is out of range.
    ///
    /// Under a service manager (`$NOTIFY_SOCKET` set, as systemd sets it for
    /// a `Type=notify` service) it sends READY=1 once it accepts connections,
    /// STOPPING=1 when the shutdown starts, and, when the manager asks for
    /// watchdog pings (`$WATCHDOG_USEC`), WATCHDOG=1 twice per period for as
    /// long as its event loop answers.
    package func run() async throws {
        let notifier = ServiceManagerNotifier(environment: ProcessInfo.processInfo.environment, pid: getpid())
        let parts = try WorkerParts(configuration: configuration, logger: logger)
        let group = parts.serviceGroup(logger: logger)
        let failure: (any Error)? = await withTaskGroup(of: Void.self) { tasks in
            tasks.addTask { await Self.announce(parts, to: notifier, logger: logger) }
            defer { tasks.cancelAll() }
            do {
                // The inner group follows this task's graceful shutdown and cancellation.
                try await group.run()
                return nil
            } catch {
                return error
            }
        }
        try? await parts.events.shutdownGracefully()
        if let failure { throw failure }
        logger.info("worker stopped", metadata: [
            "connections_cut_off": "\(parts.socketDoor.connectionsCutOff)",
            "frames_processed": "\(parts.core.stats.framesProcessed.load(ordering: .relaxed))",
        ])
    }

    /// Once every part is up, logs it and tells the service manager, pings
    /// its watchdog while the event loop answers, and says when the shutdown
    /// starts. Returns early when cancelled before every part is up.
    private static func announce(_ parts: WorkerParts, to notifier: ServiceManagerNotifier?, logger: Logger) async {
        guard await parts.started.wait(for: parts.services.count) else { return }
        parts.logStarted()
        notifier?.notify("READY=1\nSTATUS=serving on \(parts.configuration.socketPath)\nMAINPID=\(getpid())")
        await withTaskGroup(of: Void.self) { tasks in
            if let notifier, let interval = notifier.watchdogInterval {
                tasks.addTask {
                    // A ping says the event loop still runs tasks, not merely that this process exists.
                    while await parts.socketDoor.eventLoopAnswers(), !Task.isCancelled {
                        notifier.notify("WATCHDOG=1")
                        try? await Task.sleep(for: interval)
                    }
                }
            }
            try? await gracefulShutdown()
            tasks.cancelAll()
        }
        logger.info("shutting down")
        notifier?.notify("STOPPING=1\nSTATUS=draining connections")
    }
}
