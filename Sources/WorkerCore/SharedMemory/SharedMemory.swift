import FaceWorkerProtocol
import Synchronization

/// What the worker's connections share about shared-memory buffers: where
/// the handoff socket is, the tokens waiting for their handoff, buffer IDs
/// and the counts GetStats reports.
package final class SharedMemory: Sendable {
    /// The length of a token, in bytes.
    package static let tokenLength = 16

    /// The handoff socket, as RegisterBufferResponse states it.
    package let address: HandoffAddress
    /// How long a RegisterBuffer token, and the buffer ID it reserves, stays valid.
    package let tokenLifetime: Duration
    /// The tokens of reservations whose handoff has not come yet.
    package let tokens = HandoffTokens()
    /// Registered buffers and mapped bytes.
    package let counters = SharedMemoryCounters()
    private let lastBufferID = Atomic<UInt64>(0)

    /// The shared state of a worker whose handoff socket is at `address` and
    /// whose tokens live `tokenLifetime`.
    package init(address: HandoffAddress, tokenLifetime: Duration) {
        self.address = address
        self.tokenLifetime = tokenLifetime
    }

    /// A buffer ID never used before by this worker (never 0), so an ID of one
    /// connection never names a buffer of another.
    package func makeBufferID() -> UInt64 {
        lastBufferID.add(1, ordering: .relaxed).newValue
    }

    /// A fresh unguessable token.
    package static func makeToken() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<tokenLength).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }
}
