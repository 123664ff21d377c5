import CXNNPack

/// Initialises XNNPACK before anything is made with it (XNNPACK makes the
/// repeated calls free); a failure names `file`, what was being made.
func initializeXNNPACK(for file: String) throws {
    let status = xnn_initialize(nil)
    guard status == xnn_status_success else {
        throw InferenceError(file: file, problem: "XNNPACK failed to initialise: \(status.name)")
    }
}
