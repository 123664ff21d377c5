import Glibc
import NIOCore

/// The worker's socket in the file system.
///
/// The socket must never be reachable with a wider mode than asked for, and
/// changing the process-wide umask is not thread-safe. So the listener binds
/// inside a fresh private directory (mode 0700, so nobody else can reach the
/// socket there whatever mode `bind` gave it), the socket gets its final mode,
/// and only then is it hard-linked onto the public path: it appears there
/// complete, in one step. A hard link, unlike `rename`, never replaces a
/// file, so a worker that raced this one to the path is not evicted.
package struct SocketFile: Sendable {
    /// The public path.
    let path: String
    /// Whether a stale socket (nobody listening) was removed from the path.
    package let removedStaleSocket: Bool
    private let device: UInt64
    private let inode: UInt64

    /// Checks, before anything is loaded or changed, that `path` and the
    /// private path the listener first binds at beside it both fit a socket
    /// address.
    package static func checkLength(of path: String) throws(WorkerStartupError) {
        _ = try SocketAddress.unixSocket(at: path)
        let privatePath = PrivateDirectory.template(beside: path) + PrivateDirectory.socketName
        guard (try? SocketAddress.unixSocket(at: privatePath)) != nil else {
            throw WorkerStartupError(
                "socket path \(path) is in a directory whose path is too long: the worker first binds at \(privatePath) beside it, "
                    + "which must be 1 to \(SocketAddress.longestUnixSocketPath) bytes long too; choose a --socket in a directory with a shorter path")
        }
    }

    /// Claims `path` and publishes a listener there with `mode`.
    ///
    /// - Parameters:
    ///   - listen: binds a listener to the private address it is given.
    ///   - abandon: closes that listener when publishing fails.
    /// - Throws: `WorkerStartupError` when a live worker answers on `path`,
    ///   when `path` is something other than a socket or too long, or on a
    ///   system error.
    package static func publish<Listener>(
        at path: String, mode: UInt32,
        listen: (SocketAddress) async throws -> Listener, abandon: (Listener) async -> Void
    ) async throws -> (SocketFile, Listener) {
        try checkLength(of: path)
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
        let privatePath = directory.path + PrivateDirectory.socketName
        let listener = try await listen(try SocketAddress.unixSocket(at: privatePath))
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
    package func remove() {
        var status = stat()
        guard lstat(path, &status) == 0, UInt64(status.st_dev) == device, UInt64(status.st_ino) == inode else { return }
        unlink(path)
    }
}

/// A fresh directory only the worker's user can enter, in the same directory
/// (and so the same file system) as the path it is for.
private struct PrivateDirectory {
    /// The name of the listener's socket inside the directory, after a slash.
    static let socketName = "/socket"

    let path: String

    init(beside target: String) throws(WorkerStartupError) {
        var template = Array(Self.template(beside: target).utf8CString)
        guard let created = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw WorkerStartupError("cannot create a private directory beside \(target): \(SystemError.message(errno))")
        }
        path = String(cString: created)
    }

    /// The `mkdtemp` template of the directory, as long as the path it becomes.
    static func template(beside target: String) -> String {
        let parent = target.lastIndex(of: "/").map { target[..<$0].isEmpty ? "/" : String(target[..<$0]) } ?? "."
        return "\(parent == "/" ? "" : parent)/.faceworker-XXXXXX"
    }

    func remove() {
        rmdir(path)
    }
}
