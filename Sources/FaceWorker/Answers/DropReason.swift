/// Why a frame was never processed.
enum DropReason: Sendable {
    /// A newer live-stream frame took its place.
    case replaced
    /// Its session was closed.
    case sessionClosed
    /// Its session was reset.
    case sessionReset
}
