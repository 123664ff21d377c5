import Glibc

/// The worker's socket in the file system.
///
/// The socket must never be reachable with a wider mode than asked for, and
/// changing the process-wide umask is not thread-safe. So the listener binds
/// inside a fresh private directory (mode 0700, so nobody else can reach the
/// socket there whatever mode `bind` gave it), the socket gets its final mode,
/// and only then is it hard-linked onto the public path: it appears there
/// complete, in one step. A hard link, unlike `rename`, never replaces a
/// file, so a worker that raced this one to the path is not evicted.
struct SocketFile: Sendable {
    /// The public path.
    let path: String
    /// Whether a stale socket (nobody listening) was removed from the path.
    let removedStaleSocket: Bool
    private let device: UInt64
    private let inode: UInt64

    /// Claims `path` and publishes a listener there with `mode`.
    ///
    /// - Parameters:
    ///   - listen: binds a listener to the private path it is given.
    ///   - abandon: closes that listener when publishing fails.
    /// - Throws: `WorkerStartupError` when a live worker answers on `path`,
    ///   when `path` is something other than a socket, or on a system error.
    static func publish<Listener>(
        at path: String, mode: UInt32,
        listen: (String) async throws -> Listener, abandon: (Listener) async -> Void
    ) async throws -> (SocketFile, Listener) {
        _ = try UnixSocketAddress(path)
        let stale: Bool
        switch try SocketProbe.probe(path) {
        case .live:
            throw WorkerStartupError("a worker already answers on \(path); stop it first or choose another --socket")
        case .stale:
            guard unlink(path) == 0 || errno == ENOENT else {
                throw WorkerStartupError("cannot remove the stale socket \(path): \(SystemError.message(errno))")
            }
            stale = true
        case .absent:
            stale = false
        }

        let directory = try PrivateDirectory(beside: path)
        defer { directory.remove() }
        let privatePath = directory.path + "/socket"
        let listener = try await listen(privatePath)
        do {
            guard chmod(privatePath, mode_t(mode)) == 0 else {
                throw WorkerStartupError("cannot set the mode of \(privatePath): \(SystemError.message(errno))")
            }
            guard link(privatePath, path) == 0 else {
                if errno == EEXIST {
                    throw WorkerStartupError("another process created \(path) while this worker was starting")
                }
                throw WorkerStartupError("cannot publish the socket at \(path): \(SystemError.message(errno))")
            }
            unlink(privatePath)
            var status = stat()
            guard lstat(path, &status) == 0 else {
                throw WorkerStartupError("cannot inspect \(path): \(SystemError.message(errno))")
            }
            let file = SocketFile(path: path, removedStaleSocket: stale, device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
            return (file, listener)
        } catch {
            unlink(privatePath)
            await abandon(listener)
            throw error
        }
    }

    /// Removes the socket file, unless it was replaced by another one since
    /// (someone else's socket is left alone).
    func remove() {
        var status = stat()
        guard lstat(path, &status) == 0, UInt64(status.st_dev) == device, UInt64(status.st_ino) == inode else { return }
        unlink(path)
    }
}

/// A fresh directory only the worker's user can enter, in the same directory
/// (and so the same file system) as the path it is for.
private struct PrivateDirectory {
    let path: String

    init(beside target: String) throws(WorkerStartupError) {
        let parent = target.lastIndex(of: "/").map { target[..<$0].isEmpty ? "/" : String(target[..<$0]) } ?? "."
        var template = Array("\(parent == "/" ? "" : parent)/.faceworker-XXXXXX".utf8CString)
        guard let created = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw WorkerStartupError("cannot create a private directory in \(parent): \(SystemError.message(errno))")
        }
        path = String(cString: created)
    }

    func remove() {
        rmdir(path)
    }
}
