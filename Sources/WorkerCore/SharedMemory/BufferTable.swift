import Logging
import Synchronization

/// One connection's shared-memory buffers: the IDs RegisterBuffer reserved,
/// whose handoff has not come yet, and the buffers registered, mapped.
///
/// The connection's event loop reserves, looks up and unregisters; the
/// handoff thread claims and registers. Reserved and registered buffers count
/// together against the connection's buffer limit.
package final class BufferTable: Sendable {
    private enum Slot {
        /// Reserved by the process `pid`; a handoff claims it once.
        case reserved(pid: Int32, deadline: ContinuousClock.Instant, claimed: Bool)
        case registered(SharedMapping)
    }

    private struct State {
        var slots: [UInt64: Slot] = [:]
        var closed = false

        var mappedBytes: Int {
            slots.values.reduce(0) { total, slot in
                if case .registered(let mapping) = slot { return total + mapping.size }
                return total
            }
        }
    }

    /// The connection's logger, for one line per buffer registered, refused or unregistered.
    package let logger: Logger
    private let maxBuffers: Int
    private let maxMappedBytes: Int
    private let counters: SharedMemoryCounters
    private let state = Mutex(State())

    /// An empty table for a connection with these limits.
    package init(maxBuffers: Int, maxMappedBytes: Int, counters: SharedMemoryCounters, logger: Logger) {
        self.maxBuffers = maxBuffers
        self.maxMappedBytes = maxMappedBytes
        self.counters = counters
        self.logger = logger
    }

    /// Reserves `bufferID` for a handoff from the process `pid` before `deadline`.
    package func reserve(_ bufferID: UInt64, pid: Int32, deadline: ContinuousClock.Instant) throws(CallError) {
        let now = ContinuousClock.now
        try state.withLock { (state) throws(CallError) in
            state.slots = state.slots.filter { _, slot in
                if case .reserved(_, let deadline, false) = slot { return deadline > now }
                return true
            }
            guard state.slots.count < maxBuffers else {
                throw CallError(.resourceExhausted, "this connection already has \(state.slots.count) buffers, registered or reserved, the most the worker allows (--max-buffers-per-connection); unregister one first")
            }
            state.slots[bufferID] = .reserved(pid: pid, deadline: deadline, claimed: false)
        }
    }

    /// Starts the handoff of a reserved buffer from the process `pid`.
    ///
    /// - Throws: NOT_FOUND when the reservation expired or the connection
    ///   closed; PERMISSION_DENIED when `pid` is not the process that asked.
    package func claim(_ bufferID: UInt64, pid: Int32, now: ContinuousClock.Instant) throws(CallError) {
        try state.withLock { (state) throws(CallError) in
            guard case .reserved(let owner, let deadline, false) = state.slots[bufferID], deadline > now else {
                throw CallError(.notFound, "the reservation of buffer \(bufferID) expired or its connection closed; call RegisterBuffer again")
            }
            guard owner == pid else {
                throw CallError(.permissionDenied, "the handoff came from process \(pid), but buffer \(bufferID) was reserved by process \(owner): the process that calls RegisterBuffer must hand the buffer over itself")
            }
            state.slots[bufferID] = .reserved(pid: owner, deadline: deadline, claimed: true)
        }
    }

    /// Checks that `size` more bytes fit this connection's mapped-bytes limit.
    package func checkRoom(for size: Int) throws(CallError) {
        try state.withLock { (state) throws(CallError) in try Self.checkRoom(state, size: size, limit: maxMappedBytes) }
    }

    /// Makes a claimed reservation a registered buffer.
    package func register(_ mapping: SharedMapping) throws(CallError) {
        try state.withLock { (state) throws(CallError) in
            guard !state.closed, case .reserved(_, _, true) = state.slots[mapping.bufferID] else {
                throw CallError(.notFound, "the connection that reserved buffer \(mapping.bufferID) has closed")
            }
            try Self.checkRoom(state, size: mapping.size, limit: maxMappedBytes)
            state.slots[mapping.bufferID] = .registered(mapping)
        }
        counters.buffers.add(1, ordering: .relaxed)
    }

    /// Drops a reservation whose handoff failed.
    package func cancel(_ bufferID: UInt64) {
        state.withLock { state in
            if case .reserved = state.slots[bufferID] { state.slots[bufferID] = nil }
        }
    }

    /// The registered buffer `bufferID`, if this connection has it.
    func mapping(_ bufferID: UInt64) -> SharedMapping? {
        state.withLock { state in
            guard case .registered(let mapping) = state.slots[bufferID] else { return nil }
            return mapping
        }
    }

    /// Forgets a registered buffer; it is unmapped once the frames naming it
    /// let it go. Nil when this connection has no such buffer.
    package func unregister(_ bufferID: UInt64) -> SharedMapping? {
        let mapping = state.withLock { state -> SharedMapping? in
            guard case .registered(let mapping) = state.slots[bufferID] else { return nil }
            state.slots[bufferID] = nil
            return mapping
        }
        if mapping != nil { counters.buffers.subtract(1, ordering: .relaxed) }
        return mapping
    }

    /// Forgets every buffer and reservation, for good: the connection closed.
    /// Returns the buffers that were registered.
    package func close() -> [SharedMapping] {
        let mappings = state.withLock { state -> [SharedMapping] in
            state.closed = true
            defer { state.slots.removeAll() }
            return state.slots.values.compactMap { slot in
                if case .registered(let mapping) = slot { return mapping }
                return nil
            }
        }
        counters.buffers.subtract(mappings.count, ordering: .relaxed)
        return mappings
    }

    private static func checkRoom(_ state: State, size: Int, limit: Int) throws(CallError) {
        let mapped = state.mappedBytes
        guard size <= limit - mapped else {
            throw CallError(.resourceExhausted, "a buffer of \(size) bytes would bring this connection's mapped bytes to \(mapped + size), past the worker's limit of \(limit) (--max-mapped-bytes-per-connection); unregister a buffer or use a smaller one")
        }
    }
}
