/// Who may talk to the worker: its own user, plus the users and groups the
/// operator allowed with `--allow-uid` and `--allow-group`.
///
/// The decision uses the credentials the kernel recorded for the peer when it
/// connected (`SO_PEERCRED`), never anything the client says about itself.
package struct PeerPolicy: Sendable, Hashable {
    /// The worker's own effective user ID; its peers are always allowed.
    package var workerUID: UInt32
    /// Further users allowed to connect.
    package var allowedUIDs: Set<UInt32>
    /// Groups whose members (by the peer's primary group) may connect.
    package var allowedGIDs: Set<UInt32>

    /// Creates a policy.
    package init(workerUID: UInt32, allowedUIDs: Set<UInt32> = [], allowedGIDs: Set<UInt32> = []) {
        self.workerUID = workerUID
        self.allowedUIDs = allowedUIDs
        self.allowedGIDs = allowedGIDs
    }

    /// Whether a peer with these credentials may use the worker.
    package func allows(_ peer: PeerCredentials) -> Bool {
        peer.uid == workerUID || allowedUIDs.contains(peer.uid) || allowedGIDs.contains(peer.gid)
    }
}

/// The process, user and group of the process at the other end of a Unix
/// socket, as the kernel reports them.
package struct PeerCredentials: Sendable, Hashable, CustomStringConvertible {
    /// The peer's process ID when it connected.
    package var pid: Int32
    /// The peer's effective user ID.
    package var uid: UInt32
    /// The peer's effective primary group ID.
    package var gid: UInt32

    /// Creates credentials.
    package init(pid: Int32, uid: UInt32, gid: UInt32) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
    }

    package var description: String { "pid \(pid) uid \(uid) gid \(gid)" }
}
