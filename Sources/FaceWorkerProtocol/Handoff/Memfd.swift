import Glibc

/// Linux's sealable anonymous memory files (memfd), as a shared-memory buffer
/// is made by a client and checked by the worker.
///
/// Glibc's Swift module hides `memfd_create` and the sealing constants (they
/// need `_GNU_SOURCE`); the constants are the kernel's ABI values, and the
/// function is looked up in the C library the process already loaded.
package enum Memfd {
    /// `fcntl` command adding seals.
    package static let addSeals: Int32 = 1033
    /// `fcntl` command reading seals; fails with EINVAL for anything but a memfd or shmem file.
    package static let getSeals: Int32 = 1034
    /// No further seal may be added.
    package static let sealSeal: Int32 = 0x1
    /// The file may not shrink: a mapping of it can never fault past its end.
    package static let sealShrink: Int32 = 0x2
    /// The file may not grow.
    package static let sealGrow: Int32 = 0x4
    /// The file's contents may not be written.
    package static let sealWrite: Int32 = 0x8

    private static let closeOnExec: UInt32 = 0x1
    private static let allowSealing: UInt32 = 0x2

    private typealias Create = @convention(c) (UnsafePointer<CChar>, UInt32) -> Int32

    /// A new memfd named `name` (the name shows in /proc/<pid>/maps), close
    /// on exec, that accepts seals; returns the descriptor or -1 with errno set.
    package static func create(name: String) -> Int32 {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "memfd_create") else {
            errno = ENOSYS
            return -1
        }
        let create = unsafeBitCast(symbol, to: Create.self)
        return create(name, closeOnExec | allowSealing)
    }
}
