/// A checked region of a mapped buffer: the pixels of one frame. It keeps
/// the mapping alive for as long as the frame exists.
package struct SharedRegion: Sendable {
    /// The buffer.
    let mapping: SharedMapping
    /// The first byte, from the start of the buffer; the region lies within it.
    let offset: Int
    /// The bytes in the region, at least 1.
    let length: Int

    /// Calls `body` with the region's bytes, valid only during the call.
    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withExtendedLifetime(mapping) {
            try body(UnsafeRawBufferPointer(start: mapping.base + offset, count: length))
        }
    }
}
