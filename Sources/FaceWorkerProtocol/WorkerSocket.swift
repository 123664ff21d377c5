import Foundation

/// Where a worker listens unless told otherwise, and so where every client
/// looks for it: the rule of the conformance file
/// (`proto/faceworker/v1/defaults.json`), which the Python and C clients
/// follow too.
public enum WorkerSocket {
    /// The socket path: `explicit` when given; else `$FACEWORKER_SOCKET` when
    /// it is set and not empty; else `faceworker.sock` in `$XDG_RUNTIME_DIR`
    /// when that is an absolute path (a private, per-user tmpfs); else
    /// `/tmp/faceworker-<uid>.sock`.
    public static func path(explicit: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment,
                            uid: UInt32 = geteuid()) -> String {
        if let explicit { return explicit }
        if let named = environment[environmentVariable], !named.isEmpty { return named }
        if let runtime = environment[runtimeDirectoryVariable], runtime.hasPrefix("/") {
            return runtime.hasSuffix("/") ? runtime + runtimeDirectoryFile : "\(runtime)/\(runtimeDirectoryFile)"
        }
        return fallbackPattern.replacingOccurrences(of: "{uid}", with: String(uid))
    }
}
