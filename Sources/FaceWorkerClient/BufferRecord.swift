import Synchronization

/// What a client keeps of a registered shared-memory buffer: its memfd, to
/// hand to a restarted worker, and the worker's current ID for it.
///
/// The descriptor belongs to the buffer, which takes the record out of its
/// client before it closes the descriptor.
final class BufferRecord: Sendable {
    /// The buffer's memfd.
    let descriptor: Int32
    private let workerID: Mutex<UInt64>

    init(descriptor: Int32, id: UInt64) {
        self.descriptor = descriptor
        workerID = Mutex(id)
    }

    /// The worker's ID for the buffer, on the current connection.
    var id: UInt64 {
        get { workerID.withLock { $0 } }
        set { workerID.withLock { $0 = newValue } }
    }
}
