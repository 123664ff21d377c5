import FaceWorkerProtocol
import Foundation

/// Everything a worker needs to start: where to listen, who may connect, the
/// models, the inference threads, the limits and the metrics endpoint.
package struct WorkerConfiguration: Sendable {
    /// The Unix socket's path.
    package var socketPath: String
    /// The permission bits the socket file gets (0600: only the owner may
    /// connect).
    package var socketMode: UInt32 = 0o600
    /// The directory with the four `.tflite` files.
    package var modelsDirectory: String
    /// Threads that run the models, each with its own runtimes.
    package var inferenceThreads: Int
    /// What set `inferenceThreads`, for the start line.
    package var inferenceThreadsSource: String
    /// What clients may ask for.
    package var limits = WorkerLimits()
    /// Which peers may connect besides the worker's own user.
    package var peerPolicy: PeerPolicy
    /// Where the gRPC door listens (faceworker.v1.FaceWorker over HTTP/2 on a
    /// Unix socket); nil: no gRPC door.
    package var grpcSocketPath: String?
    /// A listening socket a service manager passed (socket activation), served
    /// instead of binding `socketPath`, and left in place on exit.
    package var inheritedListener: Int32?
    /// Where Prometheus metrics are served over HTTP; nil (the default): they
    /// are not.
    package var metrics: MetricsEndpoint?
    /// How long a graceful shutdown waits for connections to finish the calls
    /// they sent before it closes them anyway. One deadline for every door:
    /// it starts when the first door drains.
    package var drainTimeout = Self.defaultDrainTimeout
    /// How long a RegisterBuffer token, and the buffer ID it reserves, stays
    /// valid until its handoff comes.
    package var handoffTokenLifetime = Self.defaultHandoffTokenLifetime

    /// A configuration with the default socket mode, limits and policy, and
    /// one inference thread per CPU the process may keep busy.
    package init(socketPath: String = WorkerSocket.path(), modelsDirectory: String, cpus: CPUBudget = .current()) {
        self.socketPath = socketPath
        self.modelsDirectory = modelsDirectory
        inferenceThreads = cpus.cpus
        inferenceThreadsSource = cpus.source
        peerPolicy = PeerPolicy(workerUID: geteuid())
    }

    /// The drain timeout unless one is set: 1.5 s, so that the whole shutdown
    /// stays well under 2 s.
    package static let defaultDrainTimeout = Duration.milliseconds(1500)
    /// The handoff token lifetime unless one is set: 10 s.
    package static let defaultHandoffTokenLifetime = Duration.seconds(10)

    /// Checks the values that do not depend on the file system.
    package func validate() throws(WorkerStartupError) {
        guard inferenceThreads >= 1 else {
            throw WorkerStartupError("--threads must be at least 1, got \(inferenceThreads)")
        }
        guard socketMode & ~0o777 == 0 else {
            throw WorkerStartupError("--socket-mode must be permission bits between 0 and 0777, got 0\(String(socketMode, radix: 8))")
        }
        guard drainTimeout >= .zero else {
            throw WorkerStartupError("--drain-timeout-ms must be 0 or more, got \(Int(drainTimeout / .milliseconds(1)))")
        }
        guard handoffTokenLifetime > .zero else {
            throw WorkerStartupError("--handoff-token-lifetime-ms must be at least 1, got \(Int(handoffTokenLifetime / .milliseconds(1)))")
        }
        try limits.validate()
        try metrics?.validate()
    }
}
