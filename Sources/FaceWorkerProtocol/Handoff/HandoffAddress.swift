import Glibc

/// A buffer handoff socket's address as RegisterBufferResponse states it: a
/// Linux abstract address when it starts with "@" (standing for the leading
/// zero byte), otherwise a path.
package struct HandoffAddress: Sendable, Hashable, CustomStringConvertible {
    /// The address as the wire spells it.
    package let description: String

    /// The address `text` names, or nil when it is empty or too long for a
    /// Unix socket address.
    package init?(_ text: String) {
        guard !text.isEmpty, text != "@", text.utf8.count < MemoryLayout.size(ofValue: sockaddr_un().sun_path) else { return nil }
        description = text
    }

    /// Calls `body` with the address as a `sockaddr_un` and its length.
    package func withSocketAddress<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        // An abstract name is exactly its bytes after the zero byte, with no terminator.
        let name: [UInt8] = description.hasPrefix("@") ? [0] + Array(description.utf8.dropFirst()) : Array(description.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: name) }
        let length = MemoryLayout<sa_family_t>.size + name.count + (description.hasPrefix("@") ? 0 : 1)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(length)) }
        }
    }

    /// A new blocking stream socket connected to the address, close on exec;
    /// -1 with errno set on failure.
    package func connect() -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return -1 }
        let status = withSocketAddress { Glibc.connect(descriptor, $0, $1) }
        guard status == 0 else {
            let code = errno
            close(descriptor)
            errno = code
            return -1
        }
        return descriptor
    }
}
