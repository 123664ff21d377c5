// Generated from proto/faceworker/v1/defaults.json by scripts/gen-conformance.py (make conformance). Do not edit.

extension WorkerSocket {
    /// The environment variable that names the socket for every client and the worker.
    public static let environmentVariable = "FACEWORKER_SOCKET"
    /// The variable holding the user's runtime directory.
    static let runtimeDirectoryVariable = "XDG_RUNTIME_DIR"
    /// The socket's file name in the runtime directory.
    static let runtimeDirectoryFile = "faceworker.sock"
    /// The socket when there is no runtime directory; `{uid}` stands for the effective user ID.
    static let fallbackPattern = "/tmp/faceworker-{uid}.sock"
    /// The longest answer a client accepts unless told otherwise, in bytes.
    public static let maxAnswerBytes = 67108864
}
