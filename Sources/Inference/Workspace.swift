import CXNNPack

/// Memory for the tensors inside XNNPACK runtimes that never run at the same
/// time, such as one thread's runtimes of every model: shared, they need only
/// as much as the largest run, where each runtime of its own would hold its
/// whole arena for good (about 50 MB of a worker thread's 64 MB with every
/// model built).
///
/// Not `Sendable`: the runtimes that share it run on one thread at a time.
package final class Workspace {
    let handle: xnn_workspace_t

    /// Creates an empty workspace; it grows to the largest runtime built in it.
    package init() throws {
        try initializeXNNPACK(for: "workspace")
        var handle: xnn_workspace_t?
        let status = xnn_create_workspace(&handle)
        guard status == xnn_status_success, let handle else {
            throw InferenceError(file: "workspace", problem: "XNNPACK could not create a workspace: \(status.name)")
        }
        self.handle = handle
    }

    deinit {
        xnn_release_workspace(handle)
    }
}
