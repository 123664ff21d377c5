import Glibc

/// The worker's resident set size, from `/proc/self/statm`.
package enum ResidentMemory {
    /// Resident bytes, or 0 when the kernel does not say.
    package static func bytes() -> UInt64 {
        let descriptor = open("/proc/self/statm", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return 0 }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return 0 }
        // "size resident shared text lib data dt", in pages.
        let fields = buffer[..<count].split(separator: UInt8(ascii: " "))
        guard fields.count >= 2, let pages = UInt64(String(decoding: fields[1], as: UTF8.self)) else { return 0 }
        return pages * UInt64(sysconf(Int32(_SC_PAGESIZE)))
    }
}
