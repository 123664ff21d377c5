import CXNNPack

/// Packed weights shared by every runtime of the same models, so a worker
/// with one engine per inference thread holds each model's packed weights
/// once instead of once per engine.
///
/// It is filled, then finalized, then only read:
/// 1. The runtimes built while it is open pack their weights into it; they
///    cannot run until it is finalized and they are set up again
///    (`Runtime.rebind()`), because the buffer moves as it grows.
/// 2. `finalize()` fixes the buffer in place, with room to pack one more
///    operator's weights for comparison.
/// 3. A runtime built after that packs each operator's weights into that room
///    and takes the identical copy already cached; a model not packed before
///    finalizing fails to build.
///
/// Safety of `@unchecked Sendable`: the handle is written only in `init` and
/// freed only in `deinit`. XNNPACK guards every reservation and insertion with
/// the cache's own mutex. The buffer a running runtime reads moves only while
/// the cache is open, and its owner builds every runtime of that phase on one
/// thread and runs none of them until `finalize()`, after which the buffer
/// stays where it is; a runtime built later writes only into the spare room,
/// which no runtime reads.
package final class WeightsCache: @unchecked Sendable {
    let handle: xnn_weights_cache_t

    /// Creates an empty, open cache.
    package init() throws {
        try initializeXNNPACK(for: "weights cache")
        var handle: xnn_weights_cache_t?
        let status = xnn_create_weights_cache(&handle)
        guard status == xnn_status_success, let handle else {
            throw InferenceError(file: "weights cache", problem: "XNNPACK could not create a weights cache: \(status.name)")
        }
        self.handle = handle
    }

    deinit {
        xnn_delete_weights_cache(handle)
    }

    /// Whether the cache is finalized: runtimes built with it can be set up and run.
    package var isFinalized: Bool {
        xnn_weights_cache_is_finalized(handle)
    }

    /// Fixes the cache's buffer in place. The runtimes built before must be
    /// set up again (`Runtime.rebind()`) before they run.
    package func finalize() throws {
        let status = xnn_finalize_weights_cache(handle, xnn_weights_cache_finalization_kind_soft)
        guard status == xnn_status_success else {
            throw InferenceError(file: "weights cache", problem: "XNNPACK could not finalize the weights cache: \(status.name)")
        }
    }
}
