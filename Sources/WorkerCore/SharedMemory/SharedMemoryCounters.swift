import Synchronization

/// What GetStats reports about shared memory, over all connections.
package final class SharedMemoryCounters: Sendable {
    /// Buffers registered now.
    package let buffers = Atomic<Int>(0)
    /// Bytes mapped now, including buffers unregistered whose frames are still
    /// being answered.
    package let mappedBytes = Atomic<Int>(0)
}
