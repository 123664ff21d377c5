/// Who may talk to the worker: its own user, plus the users and groups the
/// operator allowed with `--allow-uid` and `--allow-group`.
///
/// The decision uses the credentials the kernel recorded for the peer when it
/// connected (`SO_PEERCRED`), never anything the client says about itself.
public struct PeerPolicy: Sendable, Hashable {
    /// The worker's own effective user ID; its peers are always allowed.
    public var workerUID: UInt32
    /// Further users allowed to connect.
    public var allowedUIDs: Set<UInt32>
    /// Groups whose members (by the peer's primary group) may connect.
    public var allowedGIDs: Set<UInt32>

    /// Creates a policy.
    public init(workerUID: UInt32, allowedUIDs: Set<UInt32> = [], allowedGIDs: Set<UInt32> = []) {
        self.workerUID = workerUID
        self.allowedUIDs = allowedUIDs
        self.allowedGIDs = allowedGIDs
    }

    /// Whether a peer with these credentials may use the worker.
    public func allows(_ peer: PeerCredentials) -> Bool {
        peer.uid == workerUID || allowedUIDs.contains(peer.uid) || allowedGIDs.contains(peer.gid)
    }
}

/// The process, user and group of the process at the other end of a Unix
/// socket, as the kernel reports them.
public struct PeerCredentials: Sendable, Hashable, CustomStringConvertible {
    /// The peer's process ID when it connected.
    public var pid: Int32
    /// The peer's effective user ID.
    public var uid: UInt32
    /// The peer's effective primary group ID.
    public var gid: UInt32

    /// Creates credentials.
    public init(pid: Int32, uid: UInt32, gid: UInt32) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
    }

    public var description: String { "pid \(pid) uid \(uid) gid \(gid)" }
}
