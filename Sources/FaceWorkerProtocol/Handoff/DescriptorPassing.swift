import Glibc

/// Bytes with descriptors attached (SCM_RIGHTS) on a Unix stream socket: how
/// a shared-memory buffer's memfd reaches the worker.
package enum DescriptorPassing {
    /// What one `recvmsg` brought.
    package struct Received: Sendable {
        /// The bytes read.
        package var bytes: [UInt8]
        /// Every descriptor that came, each now open in this process (close on exec).
        package var descriptors: [Int32]
        /// The kernel dropped descriptors that did not fit (MSG_CTRUNC).
        package var truncated: Bool
    }

    /// Sends `bytes` with `descriptors` in one SCM_RIGHTS message (none when
    /// empty), in one `sendmsg`; returns false with errno set on failure.
    package static func send(_ bytes: [UInt8], descriptors: [Int32], on socket: Int32) -> Bool {
        var control = [UInt8](repeating: 0, count: descriptors.isEmpty ? 0 : space(descriptors.count))
        if !descriptors.isEmpty {
            control.withUnsafeMutableBytes { raw in
                var header = cmsghdr()
                header.cmsg_len = length(descriptors.count)
                header.cmsg_level = SOL_SOCKET
                header.cmsg_type = Int32(SCM_RIGHTS)
                raw.storeBytes(of: header, as: cmsghdr.self)
                for (index, descriptor) in descriptors.enumerated() {
                    raw.storeBytes(of: descriptor, toByteOffset: headerSize + index * 4, as: Int32.self)
                }
            }
        }
        var payload = bytes
        let sent = payload.withUnsafeMutableBytes { data in
            control.withUnsafeMutableBytes { control in
                var vector = iovec(iov_base: data.baseAddress, iov_len: data.count)
                return withUnsafeMutablePointer(to: &vector) { vector in
                    var message = msghdr()
                    message.msg_iov = vector
                    message.msg_iovlen = 1
                    message.msg_control = control.count == 0 ? nil : control.baseAddress
                    message.msg_controllen = control.count
                    return sendmsg(socket, &message, Int32(MSG_NOSIGNAL))
                }
            }
        }
        return sent == bytes.count
    }

    /// Reads up to `maxBytes` bytes and the descriptors that come with them
    /// (room for `maxDescriptors`; more are closed by the kernel and flagged
    /// as truncated). Returns nil with errno set when `recvmsg` fails.
    package static func receive(on socket: Int32, maxBytes: Int, maxDescriptors: Int) -> Received? {
        var bytes = [UInt8](repeating: 0, count: maxBytes)
        var control = [UInt8](repeating: 0, count: space(maxDescriptors))
        var flags: Int32 = 0
        var controlLength = 0
        let count = bytes.withUnsafeMutableBytes { data in
            control.withUnsafeMutableBytes { control in
                var vector = iovec(iov_base: data.baseAddress, iov_len: data.count)
                return withUnsafeMutablePointer(to: &vector) { vector in
                    var message = msghdr()
                    message.msg_iov = vector
                    message.msg_iovlen = 1
                    message.msg_control = control.baseAddress
                    message.msg_controllen = control.count
                    let count = recvmsg(socket, &message, Int32(MSG_CMSG_CLOEXEC))
                    flags = message.msg_flags
                    controlLength = message.msg_controllen
                    return count
                }
            }
        }
        guard count >= 0 else { return nil }
        return Received(bytes: Array(bytes.prefix(count)), descriptors: descriptors(in: Array(control.prefix(controlLength))),
                        truncated: flags & Int32(MSG_CTRUNC) != 0)
    }

    /// The descriptors of every SCM_RIGHTS message in a control buffer.
    private static func descriptors(in control: [UInt8]) -> [Int32] {
        var found: [Int32] = []
        control.withUnsafeBytes { raw in
            var offset = 0
            while offset + headerSize <= raw.count {
                let header = raw.loadUnaligned(fromByteOffset: offset, as: cmsghdr.self)
                let end = offset + Int(header.cmsg_len)
                guard Int(header.cmsg_len) >= headerSize, end <= raw.count else { break }
                if header.cmsg_level == SOL_SOCKET, header.cmsg_type == Int32(SCM_RIGHTS) {
                    for at in stride(from: offset + headerSize, to: end - 3, by: 4) {
                        found.append(raw.loadUnaligned(fromByteOffset: at, as: Int32.self))
                    }
                }
                offset += aligned(Int(header.cmsg_len))
            }
        }
        return found
    }

    private static let headerSize = aligned(MemoryLayout<cmsghdr>.size)

    /// CMSG_ALIGN: control messages start on `size_t` boundaries.
    private static func aligned(_ length: Int) -> Int {
        let alignment = MemoryLayout<Int>.size
        return (length + alignment - 1) & ~(alignment - 1)
    }

    /// CMSG_LEN for `count` descriptors.
    private static func length(_ count: Int) -> Int {
        headerSize + count * MemoryLayout<Int32>.size
    }

    /// CMSG_SPACE for `count` descriptors.
    private static func space(_ count: Int) -> Int {
        headerSize + aligned(count * MemoryLayout<Int32>.size)
    }
}
