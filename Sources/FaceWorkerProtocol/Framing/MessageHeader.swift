/// The 5-byte prefix gRPC puts in front of every message: one flag byte, then
/// the payload length as a 32-bit big-endian integer.
///
/// FaceWorker never compresses, so the only flag value it accepts is
/// ``uncompressedFlag``. The header is parsed on its own, before any payload
/// bytes are read, so that a hostile length can be refused without allocating.
package struct MessageHeader: Hashable, Sendable {
    /// The number of bytes a header occupies on the wire.
    package static let size = 5

    /// The largest payload length a header can express, as an `Int` (clamped on
    /// 32-bit platforms, where no buffer can be that large anyway).
    package static let maximumLength = Int(clamping: UInt32.max)

    /// The flag byte of an uncompressed message.
    package static let uncompressedFlag: UInt8 = 0

    /// The flag byte as read from the wire (0 means uncompressed).
    package var flag: UInt8

    /// The number of payload bytes that follow the header.
    package var length: UInt32

    /// Creates a header.
    ///
    /// - Parameters:
    ///   - flag: The flag byte; ``uncompressedFlag`` unless testing error paths.
    ///   - length: The payload length in bytes.
    package init(flag: UInt8 = MessageHeader.uncompressedFlag, length: UInt32) {
        self.flag = flag
        self.length = length
    }

    /// Reads a header from the first ``size`` bytes of `bytes`.
    ///
    /// - Parameter bytes: At least ``size`` bytes; any beyond are ignored.
    /// - Returns: The header, or `nil` if fewer than ``size`` bytes are given.
    package init?<Bytes: Collection<UInt8>>(parsing bytes: Bytes) {
        var iterator = bytes.makeIterator()
        guard let flag = iterator.next() else { return nil }
        var length: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = iterator.next() else { return nil }
            length = length << 8 | UInt32(byte)
        }
        self.init(flag: flag, length: length)
    }

    /// Appends the header's wire form to `buffer`.
    ///
    /// - Parameter buffer: The bytes to append to.
    package func write(into buffer: inout [UInt8]) {
        buffer.append(flag)
        buffer.append(UInt8(truncatingIfNeeded: length >> 24))
        buffer.append(UInt8(truncatingIfNeeded: length >> 16))
        buffer.append(UInt8(truncatingIfNeeded: length >> 8))
        buffer.append(UInt8(truncatingIfNeeded: length))
    }

    /// The header's wire form.
    package var bytes: [UInt8] {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(Self.size)
        write(into: &buffer)
        return buffer
    }
}
