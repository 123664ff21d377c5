import FaceWorkerProtocol
import Glibc

/// The checks a handed-over descriptor passes before it is mapped: a memfd,
/// sealed against shrinking, not empty.
package enum SealedMemfd {
    /// The memfd's size now, which is what gets mapped.
    ///
    /// - Throws: INVALID_ARGUMENT for a descriptor that is not a memfd (a
    ///   pipe, a directory, a regular file...), one without F_SEAL_SHRINK, or
    ///   an empty one.
    package static func size(of descriptor: Int32) throws(CallError) -> Int {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw CallError(.invalidArgument, "the descriptor cannot be examined: \(SystemError.message(errno))")
        }
        let seals = fcntl(descriptor, Memfd.getSeals)
        guard seals >= 0 else {
            let code = errno
            guard code == EINVAL else {
                throw CallError(.invalidArgument, "the descriptor's seals cannot be read: \(SystemError.message(code))")
            }
            throw CallError(.invalidArgument, "the descriptor is \(kind(status.st_mode)), which is not a memfd: create the buffer with memfd_create(MFD_ALLOW_SEALING)")
        }
        guard seals & Memfd.sealShrink != 0 else {
            let how = seals & Memfd.sealSeal != 0
                ? "this one does not accept seals: create it with memfd_create(MFD_ALLOW_SEALING), then add the seal"
                : "add it with fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK) after sizing the memfd"
            throw CallError(.invalidArgument, "the memfd is not sealed against shrinking (F_SEAL_SHRINK), so the worker could fault reading it; \(how)")
        }
        guard status.st_size > 0 else {
            throw CallError(.invalidArgument, "the memfd is empty (0 bytes): give it its size with ftruncate before sealing it")
        }
        return Int(status.st_size)
    }

    private static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: "a pipe"
        case S_IFDIR: "a directory"
        case S_IFREG: "a regular file"
        case S_IFSOCK: "a socket"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        default: "a file of mode 0\(String(mode, radix: 8))"
        }
    }
}
