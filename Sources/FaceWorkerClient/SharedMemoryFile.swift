import FaceWorkerProtocol
import Glibc

/// A memfd of a fixed size, sealed against shrinking, mapped read-write:
/// the memory of a shared frame buffer before it is registered.
struct SharedMemoryFile {
    let descriptor: Int32
    let size: Int
    let bytes: UnsafeMutableRawBufferPointer

    /// Creates, sizes, seals and maps the memfd.
    init(size: Int) throws(FaceWorkerError) {
        guard size >= 1 else {
            throw FaceWorkerError(code: .invalidArgument, message: "a shared buffer holds at least 1 byte, not \(size)")
        }
        let descriptor = Memfd.create(name: "faceworker-buffer")
        guard descriptor >= 0 else { throw Self.failure("create a memfd", errno) }
        guard ftruncate(descriptor, off_t(size)) == 0, fcntl(descriptor, Memfd.addSeals, Memfd.sealShrink) == 0 else {
            let code = errno
            close(descriptor)
            throw Self.failure("size and seal the memfd", code)
        }
        let address = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0)
        guard let address, address != UnsafeMutableRawPointer(bitPattern: -1) else {
            let code = errno
            close(descriptor)
            throw Self.failure("map the memfd", code)
        }
        self.descriptor = descriptor
        self.size = size
        bytes = UnsafeMutableRawBufferPointer(start: address, count: size)
    }

    /// Unmaps and closes it, when it never became a registered buffer.
    func release() {
        munmap(bytes.baseAddress, size)
        close(descriptor)
    }

    private static func failure(_ operation: String, _ code: Int32) -> FaceWorkerError {
        FaceWorkerError(code: .resourceExhausted, message: "cannot \(operation) for a shared buffer: \(String(cString: strerror(code)))")
    }
}
