import ArgumentParser
import FaceWorkerProtocol
import Foundation
import Logging
import ServiceLifecycle
import WorkerComposition
import WorkerCore

/// The `face-worker` executable: argument parsing only; the work is in the
/// composition and the layers below it.
@main
struct FaceWorkerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "face-worker",
        abstract: "FaceWorker: face detection, landmarks and tracking for every local process, over a Unix socket.",
        discussion: """
            Loads MediaPipe's face models once, listens on a Unix socket and serves \
            faceworker.v1 clients (Swift, Python, C) until SIGTERM or SIGINT. Then it \
            removes the socket, answers the frames already sent (new calls get \
            UNAVAILABLE), closes each connection once its answers are written, and \
            exits 0 within 2 seconds: a client that does not read its answers is cut \
            off after 1.5 seconds (--drain-timeout-ms). A second SIGTERM or SIGINT meanwhile changes nothing. \
            Refuses to start while another worker answers on the socket; removes a \
            stale socket file left by one that died.

            Under a service manager: started with LISTEN_FDS=1 and LISTEN_PID naming \
            it (socket activation), it serves the listening socket passed as \
            descriptor 3 instead of --socket, and leaves it in place on exit; with \
            NOTIFY_SOCKET set it sends READY=1 once it accepts, STOPPING=1 when it \
            shuts down, and WATCHDOG=1 every half WATCHDOG_USEC when asked to.
            """
    )

    @Option(help: ArgumentHelp(
        "Path of the Unix socket to listen on.",
        discussion: "Default: $FACEWORKER_SOCKET when it is set, else $XDG_RUNTIME_DIR/faceworker.sock when XDG_RUNTIME_DIR is set, else /tmp/faceworker-<uid>.sock; every client looks in the same place by the same rule."))
    var socket: String = WorkerSocket.path()

    @Option(help: ArgumentHelp(
        "Also serve the gRPC service faceworker.v1.FaceWorker (proto/faceworker/v1/faceworker_service.proto) over HTTP/2 on this Unix socket.",
        discussion: "For any gRPC client or proxy (grpcio, grpc-go, grpcurl, nginx's grpc_pass): the same sessions, limits and peer checks as --socket, a session per bidirectional stream; shared-memory frames need --socket. The file gets --socket-mode. Off by default."))
    var grpcSocket: String?

    @Option(help: ArgumentHelp(
        "Directory holding the four .tflite model files (`make models` fetches them).",
        discussion: "Default: share/faceworker/models beside the directory of the executable, where `make install` puts them, when it exists; else ./models."))
    var models: String?

    @Option(help: ArgumentHelp(
        "Inference threads, each with its own model runtimes. A frame that starts while no other frame runs or waits has its model runs split over this many threads.",
        discussion: "Default: one per CPU the worker may keep busy: the CPUs of its affinity mask (taskset, a cpuset, systemd's AllowedCPUs=), or fewer under a cgroup CPU quota (cpu.max, systemd's CPUQuota=), rounded up. The start line says where the number came from."))
    var threads: Int?

    @Option(help: "Largest message accepted, in bytes. A longer length prefix is answered with RESOURCE_EXHAUSTED and the connection is closed.")
    var maxMessageBytes = WorkerLimits().maxMessageBytes

    @Option(help: "Largest image accepted, in pixels (width x height), checked from the JPEG header or raw frame size before decoding.")
    var maxPixels = WorkerLimits().maxPixels

    @Option(help: "Most sessions open at once over all connections.")
    var maxSessions = WorkerLimits().maxSessions

    @Option(help: "Most sessions one connection may have open at once.")
    var maxSessionsPerConnection = WorkerLimits().maxSessionsPerConnection

    @Option(help: "Most frames an image or video session may have waiting; more are refused with RESOURCE_EXHAUSTED. (A live-stream session keeps only its newest waiting frame.)")
    var maxQueuedFrames = WorkerLimits().maxQueuedFrames

    @Option(help: "Most shared-memory buffers one connection may have, registered or reserved (RegisterBuffer whose handoff has not come yet); more are refused with RESOURCE_EXHAUSTED.")
    var maxBuffersPerConnection = WorkerLimits().maxBuffersPerConnection

    @Option(help: "Most bytes of shared memory the buffers of one connection may map together; a buffer that would pass it is refused with RESOURCE_EXHAUSTED. Default: 1 GiB.")
    var maxMappedBytesPerConnection = WorkerLimits().maxMappedBytesPerConnection
    @Option(help: "Most subscribers one named session may have at once; more are refused with RESOURCE_EXHAUSTED.")
    var maxSubscribersPerSession = WorkerLimits().maxSubscribersPerSession

    @Option(help: "Most subscriptions one connection may have open at once; more are refused with RESOURCE_EXHAUSTED.")
    var maxSubscriptionsPerConnection = WorkerLimits().maxSubscriptionsPerConnection

    @Option(help: "Events that may wait unread for one subscriber. A subscriber that falls further behind loses the events past this count, and is told how many (EventsMissed); it never slows the session or other subscribers.")
    var subscriberQueue = WorkerLimits().subscriberQueue

    @Option(help: "How long a shutdown waits, in milliseconds, for connections to read the answers to the calls they sent before closing them anyway; one deadline for both sockets.")
    var drainTimeoutMs = Int(WorkerConfiguration.defaultDrainTimeout / .milliseconds(1))

    @Option(help: "How long a RegisterBuffer token stays valid, in milliseconds: a handoff that brings it later is refused with NOT_FOUND.")
    var handoffTokenLifetimeMs = Int(WorkerConfiguration.defaultHandoffTokenLifetime / .milliseconds(1))

    @Option(help: "Permission bits of the socket file, in octal. The default, 0600, lets only the worker's user connect.")
    var socketMode = "0600"

    @Option(parsing: .singleValue, help: ArgumentHelp(
        "Also accept connections from this user (a uid or a user name). Repeatable.",
        discussion: "Every peer is checked with SO_PEERCRED; the worker's own user is always accepted. The socket mode must let the user reach the socket too."))
    var allowUid: [String] = []

    @Option(parsing: .singleValue, help: "Also accept connections from processes whose primary group is this one (a gid or a group name). Repeatable.")
    var allowGroup: [String] = []

    @Option(help: ArgumentHelp(
        "Log level: trace, debug, info, notice, warning, error or critical. Frames are logged at debug only.",
        discussion: "Default: $FACEWORKER_LOG_LEVEL when it is set, else info."))
    var logLevel: Logger.Level?

    @Option(help: "Log format: text (one line a record, for people) or json (one JSON object a line, with the same fields, for log collectors).")
    var logFormat: LogFormat = .text

    @Option(
        help: ArgumentHelp(
            "Also serve Prometheus metrics over HTTP (GET /metrics) here: a Unix socket path, or a TCP host:port, :port or port.",
            discussion: """
                Off unless given. A value with a / in it, or starting with unix:, is a Unix socket path (it gets --socket-mode's \
                permission bits); anything else is TCP, on 127.0.0.1 unless a host is named (an IPv6 one in brackets: [::1]:9464); \
                port 0 takes a free port, which the log names. Prometheus scrapes TCP only, so give it a loopback port such as \
                127.0.0.1:9464. Served on a thread of its own: at most 16 connections at once, each cut off after 5 seconds, \
                requests of at most 8 KiB; any other request is answered 404 or 405.
                """,
            valueName: "where"),
        transform: { text in
            do throws(WorkerStartupError) { return try MetricsListenAddress(parsing: text) } catch { throw ValidationError(error.description) }
        })
    var metricsListen: MetricsListenAddress?

    @Option(help: .hidden)
    var metricsRequestTimeoutMs: Int?

    /// How log records are written.
    enum LogFormat: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    /// The environment variable that sets the log level when --log-level is not given.
    static let logLevelVariable = "FACEWORKER_LOG_LEVEL"

    func run() async throws {
        var configuration = WorkerConfiguration(socketPath: socket, modelsDirectory: models ?? Self.defaultModelsDirectory())
        if let threads {
            configuration.inferenceThreads = threads
            configuration.inferenceThreadsSource = "--threads"
        }
        configuration.grpcSocketPath = grpcSocket
        configuration.limits.maxMessageBytes = maxMessageBytes
        configuration.limits.maxPixels = maxPixels
        configuration.limits.maxSessions = maxSessions
        configuration.limits.maxSessionsPerConnection = maxSessionsPerConnection
        configuration.limits.maxQueuedFrames = maxQueuedFrames
        configuration.limits.maxBuffersPerConnection = maxBuffersPerConnection
        configuration.limits.maxMappedBytesPerConnection = maxMappedBytesPerConnection
        configuration.limits.maxSubscribersPerSession = maxSubscribersPerSession
        configuration.limits.maxSubscriptionsPerConnection = maxSubscriptionsPerConnection
        configuration.limits.subscriberQueue = subscriberQueue
        configuration.drainTimeout = .milliseconds(drainTimeoutMs)
        configuration.handoffTokenLifetime = .milliseconds(handoffTokenLifetimeMs)
        guard let mode = UInt32(socketMode, radix: 8) else {
            throw ValidationError("--socket-mode must be octal permission bits such as 0600, got \(socketMode)")
        }
        configuration.socketMode = mode
        configuration.peerPolicy.allowedUIDs = Set(try allowUid.map { try AccountName.uid($0) })
        configuration.peerPolicy.allowedGIDs = Set(try allowGroup.map { try AccountName.gid($0) })
        configuration.inheritedListener = try SocketActivation.inheritedListener(environment: ProcessInfo.processInfo.environment, pid: getpid())
        configuration.metrics = metricsListen.map { address in
            var endpoint = MetricsEndpoint(address: address)
            if let milliseconds = metricsRequestTimeoutMs { endpoint.requestTimeout = .milliseconds(milliseconds) }
            return endpoint
        }

        let level = try logLevel ?? Self.environmentLogLevel()
        switch logFormat {
        case .text: LoggingSystem.bootstrap(StreamLogHandler.standardError)
        case .json: LoggingSystem.bootstrap { JSONLogHandler(label: $0) }
        }
        var logger = Logger(label: "face-worker")
        logger.logLevel = level
        let server = FaceWorkerServer(configuration: configuration, logger: logger)
        // The signals are caught from before the socket appears, so a client or
        // supervisor that sees it may signal at once.
        let group = ServiceGroup(services: [server], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        try await group.run()
    }
}

extension FaceWorkerCommand {
    /// `<prefix>/share/faceworker/models` for an executable installed as
    /// `<prefix>/bin/face-worker`, when that directory exists; else `models`
    /// in the current directory, where `make models` puts them in a checkout.
    static func defaultModelsDirectory() -> String {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let installed = executable.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("share/faceworker/models").path
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: installed, isDirectory: &isDirectory) && isDirectory.boolValue ? installed : "models"
    }

    /// The level $FACEWORKER_LOG_LEVEL names, info when it is unset or empty.
    static func environmentLogLevel() throws -> Logger.Level {
        guard let text = ProcessInfo.processInfo.environment[logLevelVariable], !text.isEmpty else { return .info }
        guard let level = Logger.Level(rawValue: text) else {
            let levels = Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")
            throw ValidationError("$\(logLevelVariable) is \"\(text)\", which is not a log level (\(levels))")
        }
        return level
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
