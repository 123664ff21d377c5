import FaceWorkerProtocol
import Glibc

/// Tells a service manager how the worker is doing, by systemd's notification
/// protocol (a `Type=notify` service): one datagram of `KEY=value` lines to
/// the Unix socket `$NOTIFY_SOCKET` names, "@" standing for an abstract
/// address as systemd spells it. The protocol is these few lines, so it is
/// written here rather than linked from libsystemd.
struct ServiceManagerNotifier: Sendable {
    /// The manager's socket.
    let address: HandoffAddress
    /// How often to send WATCHDOG=1: half the `$WATCHDOG_USEC` the manager
    /// set, so one late ping is not yet a missed one; nil when it asked for none.
    let watchdogInterval: Duration?

    /// The notifier `environment` asks for, or nil without `$NOTIFY_SOCKET`.
    /// The watchdog is this process's only when `$WATCHDOG_PID` is unset or
    /// is `pid`, as the protocol says.
    init?(environment: [String: String], pid: pid_t) {
        guard let socket = environment["NOTIFY_SOCKET"], let address = HandoffAddress(socket) else { return nil }
        self.address = address
        let watchdogPID = environment["WATCHDOG_PID"].flatMap { pid_t($0) }
        if let text = environment["WATCHDOG_USEC"], let microseconds = UInt64(text), microseconds > 0,
           watchdogPID == nil || watchdogPID == pid {
            watchdogInterval = .microseconds(Int64(clamping: microseconds / 2))
        } else {
            watchdogInterval = nil
        }
    }

    /// Sends `state` (such as "READY=1"); false when the datagram could not
    /// be sent, which the manager will notice on its own.
    @discardableResult
    func notify(_ state: String) -> Bool {
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        let bytes = Array(state.utf8)
        let sent = bytes.withUnsafeBytes { payload in
            address.withSocketAddress { sendto(descriptor, payload.baseAddress, payload.count, Int32(MSG_NOSIGNAL), $0, $1) }
        }
        return sent == bytes.count
    }
}
