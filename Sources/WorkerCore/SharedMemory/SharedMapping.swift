import Glibc

/// A shared-memory buffer mapped read-only into the worker, as big as the
/// memfd was at its handoff, unmapped when the last reference goes: the
/// connection's buffer table holds one while the buffer is registered, and
/// each admitted frame naming it holds one until the frame is answered or
/// dropped.
///
/// `@unchecked Sendable` is safe: every stored property is a constant; the
/// memory is mapped PROT_READ, so no thread of the worker can write it; and it
/// is unmapped only in `deinit`, when no table, frame or region refers to the
/// mapping any more, so no reader can still be using it. The memfd is sealed
/// against shrinking, so every page up to `size` stays backed while mapped:
/// reading it never faults, whatever the client does to its file.
package final class SharedMapping: @unchecked Sendable {
    /// The buffer's ID.
    package let bufferID: UInt64
    /// The first byte.
    let base: UnsafeRawPointer
    /// Bytes mapped: the memfd's size at the handoff.
    package let size: Int
    private let counters: SharedMemoryCounters

    /// Maps `size` bytes of `descriptor`, which stays the caller's to close.
    package init(descriptor: Int32, size: Int, bufferID: UInt64, counters: SharedMemoryCounters) throws(CallError) {
        let address = mmap(nil, size, PROT_READ, MAP_SHARED, descriptor, 0)
        guard let address, address != UnsafeMutableRawPointer(bitPattern: -1) else {
            let code = errno
            throw CallError(code == ENOMEM ? .resourceExhausted : .invalidArgument,
                            "the worker cannot map the memfd's \(size) bytes: \(SystemError.message(code))")
        }
        self.bufferID = bufferID
        base = UnsafeRawPointer(address)
        self.size = size
        self.counters = counters
        counters.mappedBytes.add(size, ordering: .relaxed)
    }

    deinit {
        munmap(UnsafeMutableRawPointer(mutating: base), size)
        counters.mappedBytes.subtract(size, ordering: .relaxed)
    }
}
