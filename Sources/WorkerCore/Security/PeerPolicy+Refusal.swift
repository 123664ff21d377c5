extension PeerPolicy {
    /// The error a peer the policy refuses gets, whichever door it knocked on;
    /// nil for a peer it allows.
    package func refusal(of peer: PeerCredentials) -> CallError? {
        guard !allows(peer) else { return nil }
        return CallError(.permissionDenied, "uid \(peer.uid) may not use this worker: only its own user (uid \(workerUID)) and users or groups allowed with --allow-uid or --allow-group may")
    }
}
