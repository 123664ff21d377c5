/// Why a frame was never processed.
package enum DropReason: Sendable {
    /// A newer live-stream frame took its place.
    case replaced
    /// Its session was closed.
    case sessionClosed
    /// Its session was reset.
    case sessionReset
}
