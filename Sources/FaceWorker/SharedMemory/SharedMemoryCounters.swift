import Synchronization

/// What GetStats reports about shared memory, over all connections.
final class SharedMemoryCounters: Sendable {
    /// Buffers registered now.
    let buffers = Atomic<Int>(0)
    /// Bytes mapped now, including buffers unregistered whose frames are still
    /// being answered.
    let mappedBytes = Atomic<Int>(0)
}
