/// How a ``FaceWorkerClient`` finds its worker again after losing it: the
/// worker restarted (`systemctl restart`, an upgrade, a crash and
/// `Restart=on-failure`) under a running camera.
///
/// The client connects again, waiting `initialDelay` after the first failed
/// attempt and twice as long after each next one, up to `maxDelay`, until
/// `deadline` has passed since the loss. Once back, it opens its sessions
/// again with the options they were opened with (a named session keeps its
/// name), registers its shared-memory buffers again and subscribes its
/// subscriptions again; each session's `results` and each subscription then
/// get one `.workerRestarted` event for the outage. A worker that refuses
/// them (its limits changed, or it speaks another protocol) ends the outage
/// at once with its own error.
public struct ReconnectPolicy: Sendable, Hashable {
    /// The wait after the first failed attempt.
    public var initialDelay: Duration
    /// The longest wait between two attempts.
    public var maxDelay: Duration
    /// How long after the loss the client gives up.
    public var deadline: Duration

    /// A policy; the defaults are the Python client's.
    public init(initialDelay: Duration = .milliseconds(50), maxDelay: Duration = .milliseconds(500), deadline: Duration = .seconds(30)) {
        self.initialDelay = initialDelay
        self.maxDelay = maxDelay
        self.deadline = deadline
    }
}
