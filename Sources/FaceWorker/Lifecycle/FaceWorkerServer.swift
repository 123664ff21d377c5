import Foundation
import Logging
import ServiceLifecycle

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
public struct FaceWorkerServer: Service {
    /// The worker's configuration.
    public let configuration: WorkerConfiguration
    private let logger: Logger

    /// A worker that will serve with `configuration` and log to `logger`;
    /// nothing starts before `run()`.
    public init(configuration: WorkerConfiguration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
    }

    /// Loads the models, publishes the socket and serves until a graceful
    /// shutdown is triggered. Then it removes the socket, answers the frames
    /// already sent while refusing new calls with UNAVAILABLE, closes every
    /// connection once its answers are written (a client that does not read
    /// them is cut off after 1.5 s), stops the threads and returns.
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
    public func run() async throws {
        let notifier = ServiceManagerNotifier(environment: ProcessInfo.processInfo.environment, pid: getpid())
        let worker = try await RunningWorker.start(configuration: configuration, logger: logger)
        notifier?.notify("READY=1\nSTATUS=serving on \(configuration.socketPath)\nMAINPID=\(getpid())")
        await withTaskGroup(of: Void.self) { tasks in
            if let notifier, let interval = notifier.watchdogInterval {
                tasks.addTask {
                    // A ping says the event loop still runs tasks, not merely that this process exists.
                    while await worker.eventLoopAnswers(), !Task.isCancelled {
                        notifier.notify("WATCHDOG=1")
                        try? await Task.sleep(for: interval)
                    }
                }
            }
            // Cancellation throws here; the drain then sees it and closes at once.
            try? await gracefulShutdown()
            tasks.cancelAll()
        }
        notifier?.notify("STOPPING=1\nSTATUS=draining connections")
        await worker.shutdown()
    }
}
